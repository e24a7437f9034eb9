// SPDX-License-Identifier: Apache-2.0
// Compile-and-check in one process from JavaScript (issue 36): for every
// real URL list, Robots.parse(robots.txt) + allowed(url, 'Googlebot') for
// each URL of the list, then free(), as a one-shot script uses the npm
// package (the WASM build). Run once per build: bench/run.sh step 8 gives
// 1.0.0's js/ and this tree's alternately.
//
//   node bench/parse_check.mjs --js JS_DIR --jobs JOBS.tsv [--reps N] > out.tsv
//
// JS_DIR: a tree's js/ (src/index.js and dist/robotsc.wasm). Output: name,
// urls, ns (the median of N repetitions of parse + every check + free).
// A list the package refuses to parse is left out. Nothing here asserts a
// time.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (k, d) => {
  const i = args.indexOf(k);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : d;
};
const jsDir = opt('--js');
const jobsPath = opt('--jobs');
const reps = Number(opt('--reps', '11'));
if (!jsDir || !jobsPath || !(reps >= 1)) {
  process.stderr.write('usage: node bench/parse_check.mjs --js JS_DIR --jobs JOBS.tsv [--reps N]\n');
  process.exit(2);
}
const m = await import(pathToFileURL(resolve(jsDir, 'src/index.js')).href);
if (m.ready) await m.ready();
const { Robots } = m;

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};

function parseAndCheck(body, urls) {
  const r = Robots.parse(body);
  let n = 0;
  for (const u of urls) n += r.allowed(u, 'Googlebot') ? 1 : 0;
  r.free();
  return n;
}

const lines = readFileSync(jobsPath, 'utf8').split('\n');
const out = ['name\turls\tns'];
for (const line of lines) {
  const [name, robots, urlsPath] = line.split('\t');
  if (!urlsPath || name === 'name') continue;
  const body = new Uint8Array(readFileSync(robots));
  const urls = readFileSync(urlsPath, 'utf8').split('\n').map((s) => s.trim()).filter((s) => s);
  try {
    parseAndCheck(body, urls); // warm-up; a refused file is left out
  } catch (e) {
    process.stderr.write(`refused ${name}: ${e && e.message}\n`);
    continue;
  }
  const v = [];
  for (let k = 0; k < reps; k++) {
    const t0 = process.hrtime.bigint();
    parseAndCheck(body, urls);
    v.push(Number(process.hrtime.bigint() - t0));
  }
  out.push(`${name}\t${urls.length}\t${median(v).toFixed(0)}`);
}
process.stdout.write(out.join('\n') + '\n');
