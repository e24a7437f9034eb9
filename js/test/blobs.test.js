// SPDX-License-Identifier: Apache-2.0
// Blobs are the same bytes in C and WebAssembly: the CLI's blob loads here
// with the same verdicts, ours loads in the CLI, and both compilers emit
// identical bytes. Damaged blobs (every truncation, a bit flip in every byte)
// are rejected with a status and an offset, never loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots, RobotsError, STATUS } from '../src/index.js';
import { REPO, cli, cliPath, NO_CLI, tmp } from './helpers.js';

Robots.agentWarnings = false;
const example = readFileSync(join(REPO, 'examples', 'robots.txt'));
const urls = readFileSync(join(REPO, 'examples', 'urls.txt'), 'utf8').split('\n').filter(Boolean);
const AGENTS = ['Googlebot', 'bingbot', 'FooBot', '*'];

test('blob interchange: CLI -> JS and JS -> CLI, same bytes', { skip: !cliPath() && NO_CLI }, () => {
  const dir = tmp();
  const txt = join(dir, 'robots.txt'), cliBlob = join(dir, 'cli.rbc'), jsBlob = join(dir, 'js.rbc');
  writeFileSync(txt, example);
  for (const profile of ['google', 'rfc']) {
    const c = cli(['compile', '--profile', profile, txt, '-o', cliBlob]);
    assert.equal(c.status, 0, c.stderr);
    const fromCli = readFileSync(cliBlob);
    const ours = Robots.parse(example, { profile });
    const bytes = ours.compile();
    assert.ok(Buffer.from(bytes).equals(fromCli), `${profile}: JS and CLI blobs differ`);
    writeFileSync(jsBlob, bytes);
    const loaded = Robots.load(fromCli);
    assert.equal(loaded.profile, profile);
    for (const agent of AGENTS) {
      const r = cli(['check', '--profile', profile, '--exact-agent', agent, jsBlob], urls.join('\n') + '\n');
      assert.equal(r.status, 0, r.stderr);
      const cliVerdicts = r.stdout.toString().split('\n').filter(Boolean).map((l) => l.startsWith('allow\t'));
      assert.equal(cliVerdicts.length, urls.length);
      assert.deepEqual(loaded.allowedMany(urls, agent), cliVerdicts, `${profile} ${agent}`);
      assert.deepEqual(ours.allowedMany(urls, agent), cliVerdicts, `${profile} ${agent}`);
    }
    loaded.free();
    ours.free();
  }
});

function rejects(bytes, what) {
  let r;
  try {
    r = Robots.load(bytes);
  } catch (e) {
    assert.ok(e instanceof RobotsError, `${what}: ${e}`);
    assert.ok([STATUS.E_TRUNCATED, STATUS.E_MAGIC, STATUS.E_VERSION, STATUS.E_CHECKSUM,
      STATUS.E_CORRUPT, STATUS.E_SIZE].includes(e.status), `${what}: status ${e.status}`);
    assert.equal(typeof e.offset === 'number' || e.offset === undefined, true);
    return e;
  }
  r.free();
  assert.fail(`${what}: a damaged blob loaded`);
}

test('damaged blobs: every truncation and a bit flip in every byte', () => {
  const good = Robots.parse(example).compile();
  assert.ok(good.length > 100);
  for (let n = 0; n < good.length; n++) rejects(good.subarray(0, n), `truncated to ${n}`);
  let withOffset = 0;
  for (let i = 0; i < good.length; i++) {
    for (const bit of [0, 7]) {
      const b = good.slice();
      b[i] ^= 1 << bit;
      if (rejects(b, `byte ${i} bit ${bit}`).offset !== undefined) withOffset++;
    }
  }
  assert.ok(withOffset > 0);
  const e = rejects(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]), 'noise');
  assert.match(e.message, /cannot load blob/);
  rejects(new TextEncoder().encode('User-agent: *\nDisallow: /\n'), 'text');
  // A trailing byte.
  const longer = new Uint8Array(good.length + 1);
  longer.set(good);
  rejects(longer, 'trailing byte');
});
