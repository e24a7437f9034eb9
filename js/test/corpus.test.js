// SPDX-License-Identifier: Apache-2.0
// The real corpus equal to the CLI: the crawled URL lists (a third of them
// by default; all 373, and the 72 second robots.txt files, with
// ROBOTSC_JS_CORPUS_ALL=1, for tests/run.sh: about 100 s of CPU, most of it
// the CLI's processes, four a pair), every
// URL, three crawler names, through allowedMany() and allowed(); each
// list's robots.txt compiled by both to the same blob bytes; and the blob
// bytes of a sample of the other robots.txt files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Robots } from '../src/index.js';
import { cli, cliPath, corpusDir, corpusLists, NO_CLI, NO_CORPUS, tmp } from './helpers.js';

Robots.agentWarnings = false;
const skip = (!cliPath() && NO_CLI) || (!corpusDir() && NO_CORPUS);
const every = process.env.ROBOTSC_JS_CORPUS_ALL === '1' ? 1 : 3;

// A list's URLs as the CLI reads them from standard input: lines, a
// trailing CR dropped, blank lines skipped. Each is given to JavaScript as
// a string when its bytes are UTF-8 (the string's UTF-8 is those bytes),
// else as the bytes themselves, so both sides match the same bytes.
function urlLines(file) {
  const data = readFileSync(file);
  const out = [];
  let start = 0;
  while (start < data.length) {
    let end = data.indexOf(10, start);
    if (end < 0) end = data.length;
    let line = data.subarray(start, end);
    start = end + 1;
    if (line.length && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
    if (line.length === 0) continue;
    const s = line.toString('utf8');
    out.push(Buffer.from(s, 'utf8').equals(line) ? s : Uint8Array.from(line));
  }
  return out;
}

// With ROBOTSC_JS_CORPUS_ALL=1, a list whose index row names a second,
// different robots.txt (robots_primary beside robots_same_crawl_2019: 72
// of them) is checked against that one too.
function secondFiles(c) {
  const out = new Map();
  for (const line of readFileSync(join(c, 'urls-index.tsv'), 'utf8').split('\n').slice(1)) {
    const f = line.split('\t');
    const ok = (x) => x && x !== '-';
    if (f.length >= 6 && ok(f[4]) && ok(f[5]) && f[4] !== f[5]) out.set(f[1], join(c, f[5]));
  }
  return out;
}

test('corpus URL lists: the same blobs and verdicts as the CLI', { skip }, () => {
  const all = corpusLists(corpusDir());
  const second = every === 1 ? secondFiles(corpusDir()) : new Map();
  const lists = all.filter((_, i) => i % every === 0)
    .flatMap((l) => (second.has(l.name) ? [l, { ...l, robots: second.get(l.name) }] : [l]));
  assert.ok(all.length >= 300, `${all.length} lists`);
  const dir = tmp();
  let checks = 0, bytesUrls = 0;
  for (const [k, l] of lists.entries()) {
    const urls = urlLines(l.urls);
    bytesUrls += urls.filter((u) => typeof u !== 'string').length;
    const input = Buffer.concat(urls.flatMap((u) => [Buffer.from(u), Buffer.from('\n')]));
    // The CLI compiles once; JavaScript's blob must be the same bytes, and
    // the CLI then checks its blob (no compile per crawler name).
    const blob = join(dir, `${k}.rbc`);
    const c0 = cli(['compile', l.robots, '-o', blob]);
    assert.equal(c0.status, 0, `${l.name}: ${c0.stderr}`);
    const r = Robots.parse(readFileSync(l.robots));
    assert.ok(Buffer.from(r.compile()).equals(readFileSync(blob)), `${l.name}: blobs differ`);
    for (const agent of ['Googlebot', 'bingbot', 'FooBot']) {
      const c = cli(['check', '--agent', agent, blob], input);
      assert.equal(c.status, 0, `${l.name}: ${c.stderr}`);
      const want = c.stdout.toString('latin1').split('\n').filter(Boolean).map((x) => x.startsWith('allow\t'));
      assert.equal(want.length, urls.length, l.name);
      assert.deepEqual(r.allowedMany(urls, agent), want, `${l.name} ${agent}: allowedMany`);
      checks += urls.length;
      if (agent === 'Googlebot') {
        // The one-URL call (its own encoding path) on the same URLs.
        assert.deepEqual(urls.map((u) => r.allowed(u, agent)), want, `${l.name} ${agent}: allowed`);
      }
    }
    r.free();
  }
  assert.ok(checks > (every === 1 ? 200000 : 50000), `${checks} checks`);
  console.log(`corpus: ${lists.length} pairs (URL list, robots.txt) of ${all.length} lists, ${checks} checks equal to the CLI ` +
    `(allowedMany; allowed() too for Googlebot), ${bytesUrls} URLs given as bytes (not UTF-8)`);
});

test('corpus files: the same blob bytes as the CLI', { skip }, () => {
  const dir = join(corpusDir(), 'robots');
  const names = readdirSync(dir).sort().filter((_, i) => i % 100 === 0);
  const out = join(tmp(), 'x.rbc');
  for (const f of names) {
    const c = cli(['compile', join(dir, f), '-o', out]);
    assert.equal(c.status, 0, `${f}: ${c.stderr}`);
    const r = Robots.parse(readFileSync(join(dir, f)));
    assert.ok(Buffer.from(r.compile()).equals(readFileSync(out)), `${f}: blobs differ`);
    r.free();
  }
});
