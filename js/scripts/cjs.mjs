// SPDX-License-Identifier: Apache-2.0
// Derives dist/cjs/*.cjs (CommonJS, for require() in Node 18-20) from the
// ESM sources that follow core.js's conventions: `export function|class|
// const|async function NAME` at the start of a line, and no imports. The
// outputs are committed so that a clone installs without a build; `npm
// test` fails when they are stale (test/build.test.js).
//   node scripts/cjs.mjs [--check]
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['core.js', 'face.js', 'crawlee-core.js'];

export function toCjs(src, name) {
  if (/^import\s/m.test(src)) throw new Error(`${name}: imports are not supported`);
  const names = [];
  const body = src.replace(/^export (async function|function|class|const) ([A-Za-z_$][\w$]*)/gm,
    (m, kind, id) => { names.push(id); return `${kind} ${id}`; });
  if (/^export\s/m.test(body)) throw new Error(`${name}: an export form cjs.mjs does not know`);
  // The SPDX line stays first.
  const nl = body.indexOf('\n') + 1;
  return body.slice(0, nl) + `// Generated from src/${name} by scripts/cjs.mjs: do not edit.\n'use strict';\n` +
    body.slice(nl) + `\nmodule.exports = { ${names.join(', ')} };\n`;
}

const check = process.argv.includes('--check');
let stale = 0;
mkdirSync(join(root, 'dist', 'cjs'), { recursive: true });
for (const f of SOURCES) {
  const out = join(root, 'dist', 'cjs', f.replace(/\.js$/, '.cjs'));
  const want = toCjs(readFileSync(join(root, 'src', f), 'utf8'), f);
  if (check) {
    if (!existsSync(out) || readFileSync(out, 'utf8') !== want) {
      console.error(`stale: ${out} (run: node scripts/cjs.mjs)`);
      stale++;
    }
  } else {
    writeFileSync(out, want);
  }
}
process.exit(stale ? 1 : 0);
