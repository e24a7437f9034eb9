// SPDX-License-Identifier: Apache-2.0
// The JavaScript rows of the per-language check cost table (bench/run.sh,
// step 8; bench/js/lang.sh runs this): on one URL list, robotsc's
// WebAssembly build in Node, one call a URL (allowed()) and one call for
// the list (allowedMany()), against native C's rsc_match_url (`robotsc
// bench` on the same files) measured in the same run. The selection (agent
// Googlebot) is made once before timing, as in every language's row. The
// two are measured the same way, in turns (C, JS single, JS batch, C, ...):
// a turn is R short rounds, each at least M ms (by default 0.01 ms: one
// pass over the list, tens of microseconds), and its figure their median;
// the figure given is the median of the turns. Short rounds keep the
// figures steady on a shared, loaded machine: a round is rarely cut by
// the scheduler, and the median drops those that are.
//
//   node bench/js/lang.mjs --robots FILE --urls FILE --cli ROBOTSC --out OUT.tsv
//        [--list NAME] [--turns N] [--rounds R] [--min-ms M] [--agent A]
//
// OUT.tsv: a header line, then one line per mode (single, batch, and
// wasm-match: the module's matching alone, no JavaScript around it):
//   language mode list urls ns_per_check c_ns_per_check note
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, resolve } from 'node:path';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { Robots } = await import(join(ROOT, 'js', 'src', 'index.js'));

const a = { turns: 5, rounds: 501, minMs: 0.01, agent: 'Googlebot' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const k = argv[i], v = argv[i + 1];
  if (k === '--robots') a.robots = resolve(v);
  else if (k === '--urls') a.urls = resolve(v);
  else if (k === '--cli') a.cli = resolve(v);
  else if (k === '--out') a.out = resolve(v);
  else if (k === '--list') a.list = v;
  else if (k === '--turns') a.turns = +v;
  else if (k === '--rounds') a.rounds = +v;
  else if (k === '--min-ms') a.minMs = +v;
  else if (k === '--agent') a.agent = v;
  else throw new Error(`unknown option ${k}`);
}
for (const k of ['robots', 'urls', 'cli', 'out']) if (!a[k]) throw new Error(`--${k} is required`);
a.list ??= basename(a.urls).replace(/\.txt$/, '');

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const now = () => process.hrtime.bigint();

// ns of one call of fn(): the median of the rounds (as robotsc bench).
function timed(fn) {
  let t0 = now();
  fn();
  const reps = Math.max(1, Math.ceil((a.minMs * 1e6) / Math.max(Number(now() - t0), 1)));
  const s = [];
  for (let r = 0; r < a.rounds; r++) {
    t0 = now();
    for (let k = 0; k < reps; k++) fn();
    s.push(Number(now() - t0) / reps);
  }
  return median(s);
}

// C: the engine robotsc's check runs (the DFA where the rule set has one).
function native() {
  const r = spawnSync(a.cli, ['bench', '--agent', a.agent, '--rounds', String(a.rounds), '--min-ms',
    String(a.minMs), a.robots, a.urls], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`robotsc bench: ${r.stderr}`);
  const kv = Object.fromEntries(r.stdout.trim().split('\n').pop().split(' ').map((x) => x.split('=')));
  const dis = /verdicts: *(\d+) allowed, (\d+) disallowed/.exec(r.stdout);
  // The selection as rsc_select gives it (what rsc_match_url runs): robotsc
  // bench's dfa_match_ns since engine= (2ecd19f), whatever the engine;
  // before it, dfa_match_ns when dfa=1, else match_ns.
  const ns = kv.engine !== undefined || kv.dfa === '1' ? +kv.dfa_match_ns : +kv.match_ns;
  return { ns, disallowed: dis ? +dis[2] : NaN };
}

Robots.agentWarnings = false;
const body = readFileSync(a.robots);
const urls = readFileSync(a.urls, 'utf8').split('\n').map((u) => u.replace(/\r$/, '')).filter(Boolean);
const robots = Robots.parse(body, { warnings: false, text: true });
const agent = a.agent;
let sink = 0;
const jsDis = urls.length - robots.allowedMany(urls, agent).filter(Boolean).length;
// Warm-up: both calls, untimed, for half a second before each turn's
// timing. On the loaded machine, a turn measured right after the C process
// (or at the start) took 4x as long for allowedMany() over a whole turn,
// until the engine's optimised code arrived; half a second of warm-up
// after each C turn gave the steady figure in every turn.
function warm() {
  for (const t0 = Date.now(); Date.now() - t0 < 500;) {
    for (let i = 0; i < urls.length; i++) if (robots.allowed(urls[i], agent)) sink++;
    sink += robots.allowedMany(urls, agent).length;
  }
}
// The module's matching alone, for the record: a second instance of
// js/dist/robotsc.wasm, the list's UTF-8 put in its memory once, then
// rsj_match_many (what allowedMany() calls) timed by itself: what the
// binding's JavaScript (encoding, offsets, the array of booleans) adds is
// the batch row less this one.
function wasmOnly() {
  const mod = new WebAssembly.Module(readFileSync(join(ROOT, 'js', 'dist', 'robotsc.wasm')));
  const imp = {};
  for (const i of WebAssembly.Module.imports(mod)) if (i.kind === 'function') imp[i.name] = () => 52;
  const W = new WebAssembly.Instance(mod, { wasi_snapshot_preview1: imp }).exports;
  if (W._initialize) W._initialize();
  const bytes = urls.map((u) => Buffer.from(u, 'utf8'));
  const total = bytes.reduce((x, b) => x + b.length, 0);
  const n = urls.length, name = Buffer.from(agent);
  const words = W.rsj_alloc(64), src = W.rsj_alloc(body.length), nm = W.rsj_alloc(name.length + 8);
  const offs = W.rsj_alloc(4 * (n + 1)), out = W.rsj_alloc(n + 1), data = W.rsj_alloc(total + 1);
  let H8 = new Uint8Array(W.memory.buffer);
  H8.set(body, src);
  const r = W.rsj_parse(src, body.length, 0, 0, words);
  H8 = new Uint8Array(W.memory.buffer);
  if (!r) throw new Error('rsj_parse failed');
  new DataView(W.memory.buffer).setUint32(nm, name.length, true);
  H8.set(name, nm + 4);
  const sel = W.rsj_select(r, nm + 4, nm, 1, words);
  if (!sel) throw new Error('rsj_select failed');
  H8 = new Uint8Array(W.memory.buffer);
  const dv = new DataView(W.memory.buffer);
  let k = 0;
  bytes.forEach((b, i) => { dv.setUint32(offs + 4 * i, k, true); H8.set(b, data + k); k += b.length; });
  dv.setUint32(offs + 4 * n, k, true);
  return () => W.rsj_match_many(sel, data, offs, n, out);
}
const only = wasmOnly();
const c = [], single = [], batch = [], match = [];
let cDis = NaN;
for (let t = 0; t < a.turns; t++) {
  const n = native();
  c.push(n.ns);
  cDis = n.disallowed;
  warm();
  single.push(timed(() => { for (let i = 0; i < urls.length; i++) if (robots.allowed(urls[i], agent)) sink++; }) / urls.length);
  batch.push(timed(() => { sink += robots.allowedMany(urls, agent).length; }) / urls.length);
  for (const t0 = Date.now(); Date.now() - t0 < 200;) only();
  match.push(timed(only) / urls.length);
}
robots.free();
if (sink === -1) console.log(sink);
const cNs = median(c), sNs = median(single), bNs = median(batch), mNs = median(match);
const same = jsDis === cDis ? 'same verdicts as C' : `VERDICTS DIFFER from C (${jsDis} vs ${cDis} disallowed)`;
const f = (x) => x.toFixed(1);
// The ratio within each turn (C, then JavaScript right after), median over
// turns: the load of the shared machine drifts between turns more than
// within one, so this says how far apart the two medians' ratio may be.
const per = (xs) => `${median(xs.map((x, i) => x / c[i])).toFixed(2)}x within a turn (median)`;
const lines = [
  'language\tmode\tlist\turls\tns_per_check\tc_ns_per_check\tnote',
  `JavaScript\tsingle\t${a.list}\t${urls.length}\t${f(sNs)}\t${f(cNs)}\tallowed(url, agent), WASM in Node ${process.version}; ${same}; median of ${a.turns} turns alternating with C, each the median of ${a.rounds} rounds; ${per(single)}`,
  `JavaScript\tbatch\t${a.list}\t${urls.length}\t${f(bNs)}\t${f(cNs)}\tallowedMany(urls, agent), one call into WASM for the list; ${same}; ${per(batch)}`,
  `JavaScript\twasm-match\t${a.list}\t${urls.length}\t${f(mNs)}\t${f(cNs)}\tnot an API: the module's rsj_match_many alone on URLs already in its memory (the WASM matching; batch less this is the binding's JavaScript); ${per(match)}`,
];
mkdirSync(dirname(a.out), { recursive: true });
writeFileSync(a.out, lines.join('\n') + '\n');
process.stdout.write(lines.join('\n') + '\n');
process.stderr.write(`js/C: single ${(sNs / cNs).toFixed(2)}x, batch ${(bNs / cNs).toFixed(2)}x, ` +
  `wasm-match ${(mNs / cNs).toFixed(2)}x; turns: C ${c.map(f).join(' ')}; single ${single.map(f).join(' ')}; ` +
  `batch ${batch.map(f).join(' ')}; wasm-match ${match.map(f).join(' ')}\n`);
