// SPDX-License-Identifier: Apache-2.0
// Every verdict row of tests/data/conformance/*_cases.tsv, in the google
// profile, straight from text and through the blob (compile -> load), with
// the row's agent passed as given (Google's matching of the caller's name);
// and the helper rows the binding exposes (agent validity, lint records).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Robots, isValidAgent, lint } from '../src/index.js';
import { verdictRows, helperRows } from './helpers.js';

Robots.agentWarnings = false;

test('conformance verdict rows (text and blob)', () => {
  const rows = verdictRows();
  assert.ok(rows.length >= 271, `only ${rows.length} rows`);
  const bad = [];
  for (const r of rows) {
    const robots = Robots.parse(r.body);
    const again = Robots.load(robots.compile());
    for (const [how, x] of [['text', robots], ['blob', again]]) {
      const got = x.allowed(r.url, r.agent);
      if (got !== r.expected) bad.push(`${r.file} ${r.id} (${how}): got ${got}, want ${r.expected}`);
      if (x.allowedMany([r.url], [r.agent])[0] !== r.expected) bad.push(`${r.id} (${how}, many)`);
      if (x.explain(r.url, r.agent).allowed !== r.expected) bad.push(`${r.id} (${how}, explain)`);
    }
    robots.free();
    again.free();
  }
  assert.deepEqual(bad, []);
});

test('conformance helper rows: IsValidUserAgentToObey, lint records', () => {
  let n = 0;
  for (const r of helperRows()) {
    if (r.fn === 'IsValidUserAgentToObey') {
      assert.equal(isValidAgent(r.input.toString('latin1')), r.expected.toString() === '1', r.id);
      n++;
    } else if (r.fn === 'RobotsParsingReporter.line') {
      // expected is one record; find that line's record among the file's.
      const want = r.expected.toString();
      const line = Number(/^line=(\d+)/.exec(want)[1]);
      const { records } = lint(r.input, { records: true });
      assert.equal(records[line - 1], want, r.id);
      n++;
    }
  }
  assert.ok(n >= 10, `only ${n} helper rows run`);
});
