// SPDX-License-Identifier: Apache-2.0
// Peer benchmark for the npm package robots-parser under node.
//
//   node peer_node.js [--agent A] [--rounds N] [--min-ms M] JOBS.tsv
//
// NODE_PATH (or a node_modules next to the working directory) must hold
// robots-parser; bench/run.sh installs it under the build directory.
// JOBS.tsv and the method are as in peer_py.py: I/O and decoding before
// timing, median of N rounds after a warm-up, each round >= M ms. Output:
//   name n_urls parse_us check_ns disallowed
// robots-parser answers only for URLs of the origin its robots.txt URL
// names, so the URLs are grouped by origin (outside timing) with one parser
// per origin; parse time is that of one parse.
'use strict';
const fs = require('fs');
const robotsParser = require('robots-parser');

function args() {
  const a = { agent: 'Googlebot', rounds: 3, minMs: 5, jobs: null };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    if (v[i] === '--agent') a.agent = v[++i];
    else if (v[i] === '--rounds') a.rounds = parseInt(v[++i], 10);
    else if (v[i] === '--min-ms') a.minMs = parseFloat(v[++i]);
    else a.jobs = v[i];
  }
  if (!a.jobs) throw new Error('usage: peer_node.js [--agent A] [--rounds N] [--min-ms M] JOBS.tsv');
  return a;
}

function now() {
  return process.hrtime.bigint();
}

// Median ns of one call of fn(), after a warm-up / calibration call.
function timed(fn, rounds, minNs) {
  let t0 = now();
  fn();
  const once = Math.max(Number(now() - t0), 1);
  const reps = Math.max(1, Math.ceil(minNs / once));
  const s = [];
  for (let r = 0; r < rounds; r++) {
    t0 = now();
    for (let k = 0; k < reps; k++) fn();
    s.push(Number(now() - t0) / reps);
  }
  s.sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function origin(u) {
  try {
    return new URL(u).origin;
  } catch (e) {
    return null;
  }
}

function main() {
  const a = args();
  const minNs = a.minMs * 1e6;
  let sink = 0;
  const out = ['name\tn_urls\tparse_us\tcheck_ns\tdisallowed'];
  const jobs = fs.readFileSync(a.jobs, 'utf8').split('\n').filter((l) => l.trim());
  for (const line of jobs) {
    const [name, robots, urlFile] = line.split('\t');
    const text = fs.readFileSync(robots).toString('utf8');
    const urls = fs.readFileSync(urlFile).toString('utf8').split('\n')
      .map((u) => u.replace(/\r$/, '')).filter((u) => u.length);
    const groups = new Map();
    for (const u of urls) {
      const o = origin(u) || 'invalid:';
      if (!groups.has(o)) groups.set(o, []);
      groups.get(o).push(u);
    }
    const first = groups.keys().next().value;
    const parseNs = timed(() => { sink += robotsParser(first + '/robots.txt', text) ? 1 : 0; },
      a.rounds, minNs);
    const parsed = [];
    for (const [o, list] of groups) parsed.push([robotsParser(o + '/robots.txt', text), list]);
    let disallowed = 0;
    for (const [p, list] of parsed) for (const u of list) if (p.isAllowed(u, a.agent) === false) disallowed++;
    const checkNs = timed(() => {
      for (const [p, list] of parsed) for (const u of list) if (p.isAllowed(u, a.agent)) sink++;
    }, a.rounds, minNs) / urls.length;
    out.push(`${name}\t${urls.length}\t${(parseNs / 1e3).toFixed(3)}\t${checkNs.toFixed(1)}\t${disallowed}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  if (sink === -1) console.error(sink); // keeps sink observable
}

main();
