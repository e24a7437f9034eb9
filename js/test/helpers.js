// SPDX-License-Identifier: Apache-2.0
// Paths and data shared by the tests: the repository, the CLI to compare
// with (ROBOTSC_CLI, else build/robotsc), the corpus (../shared beside the
// repository, else ROBOTSC_CORPUS) and the conformance vectors.
import { existsSync, readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

export const JS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = resolve(JS, '..');

export function cliPath() {
  const p = process.env.ROBOTSC_CLI || join(REPO, 'build', 'robotsc');
  return existsSync(p) ? p : null;
}

export const NO_CLI = 'no robotsc CLI (set ROBOTSC_CLI or build build/robotsc): skipped';

export function corpusDir() {
  const p = process.env.ROBOTSC_CORPUS || join(REPO, '..', 'shared', 'corpus');
  return existsSync(join(p, 'urls-index.tsv')) ? p : null;
}

export const NO_CORPUS = 'no corpus (../shared/corpus): skipped';

export function tmp(prefix = 'robotsc-js-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

// Runs the CLI; returns {status, stdout (Buffer), stderr (string)}.
export function cli(args, input) {
  const r = spawnSync(cliPath(), args, { input, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

// Verdict rows of tests/data/conformance/*_cases.tsv (not the helper
// files): {file, id, body, agent, url (Buffers), expected}.
export function verdictRows() {
  const dir = join(REPO, 'tests', 'data', 'conformance');
  const rows = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('_cases.tsv') || f.includes('helper')) continue;
    const data = readFileSync(join(dir, f));
    let start = 0;
    while (start < data.length) {
      let end = data.indexOf(10, start);
      if (end < 0) end = data.length;
      const line = data.subarray(start, end);
      start = end + 1;
      if (line.length === 0) continue;
      const cols = [];
      let s = 0;
      for (let i = 0; i <= line.length; i++) {
        if (i === line.length || line[i] === 9) { cols.push(line.subarray(s, i)); s = i + 1; }
      }
      if (cols.length !== 5) throw new Error(`${f}: a row of ${cols.length} columns`);
      rows.push({
        file: f, id: cols[0].toString(), body: Buffer.from(cols[1].toString(), 'base64'),
        agent: cols[2].toString('latin1'), url: Buffer.from(cols[3]), expected: cols[4].toString() === '1',
      });
    }
  }
  return rows;
}

// Helper rows ({id, fn, input, expected}), C escapes decoded to bytes.
export function helperRows() {
  const dir = join(REPO, 'tests', 'data', 'conformance');
  const rows = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('helper_cases.tsv')) continue;
    for (const line of readFileSync(join(dir, f), 'latin1').split('\n')) {
      if (!line) continue;
      const [id, fn, input, expected] = line.split('\t');
      rows.push({ id, fn, input: unescapeC(input), expected: unescapeC(expected ?? '') });
    }
  }
  return rows;
}

function unescapeC(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\') { out.push(s.charCodeAt(i)); continue; }
    const d = s[++i];
    if (d >= '0' && d <= '7') { out.push(parseInt(s.slice(i, i + 3), 8)); i += 2; }
    else out.push({ n: 10, r: 13, t: 9 }[d] ?? d.charCodeAt(0));
  }
  return Buffer.from(out);
}

// The corpus's URL lists as bench/jobs.awk picks them: {name, robots, urls}.
export function corpusLists(c) {
  const lines = readFileSync(join(c, 'urls-index.tsv'), 'utf8').split('\n');
  const out = [];
  for (let i = 1; i < lines.length; i++) {
    const f = lines[i].split('\t');
    if (f.length < 6) continue;
    const r = f[4] !== '' && f[4] !== '-' ? f[4] : f[5];
    if (!r || r === '-') continue;
    out.push({ name: f[1], robots: join(c, r), urls: join(c, f[0]) });
  }
  return out;
}
