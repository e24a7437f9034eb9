// SPDX-License-Identifier: Apache-2.0
// The hand-written declarations (index.d.ts, robots-parser.d.ts, crawlee.d.ts)
// type-check a program that uses the whole API (test/types/use.ts), resolved
// through package.json's exports as a user's TypeScript would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { JS } from './helpers.js';

const require = createRequire(import.meta.url);

test('TypeScript declarations', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(JS, 'test', 'types', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
