// SPDX-License-Identifier: Apache-2.0
// The committed CommonJS copies are what scripts/cjs.mjs derives from the
// sources now, and both module systems give the same binding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { JS } from './helpers.js';
import * as esm from '../src/index.js';

const require = createRequire(import.meta.url);

test('dist/cjs is up to date (node scripts/cjs.mjs)', () => {
  const r = spawnSync(process.execPath, [join(JS, 'scripts', 'cjs.mjs'), '--check']);
  assert.equal(r.status, 0, r.stderr.toString());
});

test('require() and import give the same verdicts', () => {
  const cjs = require('robotsc');
  assert.equal(typeof cjs.Robots.parse, 'function');
  const body = 'User-agent: a\nDisallow: /x\n';
  for (const m of [cjs, esm]) {
    const r = m.Robots.parse(body);
    assert.equal(r.allowed('https://e.com/x', 'a'), false);
    assert.equal(r.allowed('https://e.com/y', 'a'), true);
    r.free();
  }
  assert.equal(cjs.version(), esm.version());
  const rp = require('robotsc/robots-parser');
  assert.equal(typeof rp, 'function');
  assert.equal(rp('https://e.com/robots.txt', body).isAllowed('https://e.com/x', 'a/1.0'), false);
});
