// SPDX-License-Identifier: Apache-2.0
// A sample of the real corpus equal to the CLI: the verdicts of the crawled
// URL lists (a third of the lists, every URL, three crawler names), and the
// blob bytes of a sample of robots.txt files, compiled by both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots } from '../src/index.js';
import { cli, cliPath, corpusDir, corpusLists, NO_CLI, NO_CORPUS, tmp } from './helpers.js';

Robots.agentWarnings = false;
const skip = (!cliPath() && NO_CLI) || (!corpusDir() && NO_CORPUS);

test('corpus URL lists: the same verdicts as the CLI', { skip }, () => {
  const lists = corpusLists(corpusDir()).filter((_, i) => i % 3 === 0);
  assert.ok(lists.length > 50);
  let checks = 0;
  for (const l of lists) {
    const urls = readFileSync(l.urls, 'utf8').split('\n').filter(Boolean);
    const r = Robots.parse(readFileSync(l.robots));
    for (const agent of ['Googlebot', 'bingbot', 'FooBot']) {
      const c = cli(['check', '--exact-agent', agent, l.robots], urls.join('\n') + '\n');
      assert.equal(c.status, 0, c.stderr);
      const want = c.stdout.toString().split('\n').filter(Boolean).map((x) => x.startsWith('allow\t'));
      assert.equal(want.length, urls.length, l.name);
      assert.deepEqual(r.allowedMany(urls, agent), want, `${l.name} ${agent}`);
      checks += urls.length;
    }
    r.free();
  }
  assert.ok(checks > 10000, `${checks} checks`);
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
