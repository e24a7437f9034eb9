// SPDX-License-Identifier: Apache-2.0
// Fail closed where a blob may arrive (rsc_classify()'s rule, as the CLI and
// Python apply it): Robots.parse() and the robots-parser face load a valid
// blob as a blob, and refuse with a RobotsError, never a verdict, every case
// of the damaged-blob corpus that the CLI's cli_failclosed test uses (every
// truncation of every golden blob, seeded bit flips, every bit of the magic
// and Format_Major, other majors), plus UTF-16, gzip and random bytes.
// The corpus is tests/cli/failclosed.py's own generator (its cases()
// function, run by python3 with the same seed), so both tests see the same
// bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { Robots, RobotsError, STATUS } from '../src/index.js';
import robotsParser from '../src/robots-parser.js';
import { REPO, cli, cliPath, NO_CLI, tmp } from './helpers.js';

Robots.agentWarnings = false;
const GOLDEN = join(REPO, 'tests', 'golden');
const GENERATOR = join(REPO, 'tests', 'cli', 'failclosed.py');

// failclosed.py's cases(), taken out of the script (it runs the CLI at
// import) and run on the golden blobs: name TAB base64 lines.
const EMIT = `
import ast, base64, os, random, sys
src = open(sys.argv[1]).read()
fn = [n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == "cases"]
if len(fn) != 1:
    sys.exit("no cases() in " + sys.argv[1])
ns = {"os": os, "random": random, "golden": sys.argv[2]}
exec(compile(ast.Module(body=fn, type_ignores=[]), sys.argv[1], "exec"), ns)
for name, data in dict(ns["cases"]()).items():
    sys.stdout.write(name + "\\t" + base64.b64encode(data).decode() + "\\n")
`;

function python() {
  for (const p of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(p, ['-c', 'print(1)']);
    if (!r.error && r.status === 0) return p;
  }
  return null;
}

const PY = python();
const NO_PY = 'no python3 (the generator of tests/cli/failclosed.py): skipped';

function damagedCorpus() {
  const r = spawnSync(PY, ['-c', EMIT, GENERATOR, GOLDEN], { maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr?.toString());
  return r.stdout.toString().split('\n').filter(Boolean).map((l) => {
    const [name, b64] = l.split('\t');
    return [name, new Uint8Array(Buffer.from(b64, 'base64'))];
  });
}

// A refusal: a RobotsError with a status and a message, never a Robots.
function refused(fn, what) {
  let r;
  try {
    r = fn();
  } catch (e) {
    assert.ok(e instanceof RobotsError, `${what}: ${e}`);
    assert.ok(e.status !== STATUS.OK && e.message.length > 10, `${what}: ${e.message}`);
    return e;
  }
  if (r && typeof r.free === 'function') r.free();
  assert.fail(`${what}: accepted (a verdict would follow)`);
}

test('the damaged-blob corpus of cli_failclosed: refused by Robots.parse and the face',
  { skip: !PY && NO_PY }, () => {
    const cases = damagedCorpus();
    const names = readdirSync(GOLDEN).filter((f) => f.endsWith('.rbc'));
    assert.ok(names.length >= 3, 'golden blobs');
    // Each kind the generator makes is there (its shape is what this test
    // relies on).
    for (const k of ['-trunc', '-flip', '-major']) {
      assert.ok(cases.some(([n]) => n.includes(k)), `no ${k} case`);
    }
    assert.ok(cases.length > 500, `${cases.length} cases`);
    const kinds = new Map();
    for (const [name, data] of cases) {
      const e = refused(() => Robots.parse(data), `Robots.parse ${name}`);
      kinds.set(e.statusName, (kinds.get(e.statusName) || 0) + 1);
      refused(() => Robots.parse(Buffer.from(data), { profile: 'rfc' }), `Robots.parse rfc ${name}`);
      refused(() => robotsParser('https://e.com/robots.txt', data), `robotsParser ${name}`);
      refused(() => Robots.load(data), `Robots.load ${name}`);
    }
    // Verification failures (truncated, checksum, version) and the magic a
    // bit off (damaged) are all among them.
    for (const st of ['RSC_E_MAGIC', 'RSC_E_VERSION', 'RSC_E_TRUNCATED']) {
      assert.ok(kinds.get(st) > 0, `no ${st} among ${JSON.stringify([...kinds])}`);
    }
  });

test('binary content (UTF-16, gzip, random bytes) is refused unless {text: true}', () => {
  const txt = 'User-agent: *\nDisallow: /private/\n';
  const le = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(txt, 'utf16le')]));
  const be = Buffer.from(txt, 'utf16le').swap16();
  const inputs = [
    ['UTF-16LE with BOM', le],
    ['UTF-16BE with BOM', new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))],
    ['UTF-16LE without BOM', new Uint8Array(Buffer.from(txt, 'utf16le'))],
    ['gzip', new Uint8Array(gzipSync(txt))],
  ];
  let seed = 37; // xorshift32: the same bytes every run
  const rnd = () => {
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed & 0xff;
  };
  for (let i = 0; i < 50; i++) {
    const b = new Uint8Array(200 + i * 13);
    for (let k = 0; k < b.length; k++) b[k] = rnd();
    inputs.push([`random ${i}`, b]);
  }
  for (const [what, data] of inputs) {
    const e = refused(() => Robots.parse(data), what);
    assert.match(e.message, /binary content|damaged robotsc blob|robotsc blob/, what);
    if (!/damaged|cannot load blob/.test(e.message)) {
      assert.equal(e.status, STATUS.E_ARG, what);
      assert.match(e.message, /\{text: true\}/, what);
    }
    refused(() => robotsParser('https://e.com/robots.txt', data), `face ${what}`);
  }
  // Asked for, the bytes are read as a robots.txt, as Google reads them.
  const r = Robots.parse(le, { text: true });
  assert.equal(r.source, 'text');
  assert.equal(r.allowed('https://e.com/private/x', 'bot'), true); // NULs in every key: nothing applies
  r.free();
  const f = robotsParser('https://e.com/robots.txt', le, { text: true });
  assert.equal(f.isAllowed('https://e.com/private/x', 'bot'), true);
  f.free();
  // Text with a stray NUL or a block of NUL padding is still a robots.txt.
  const padded = Robots.parse(`${txt}\0\0\0\0\0\0\0\0\0\0`);
  assert.equal(padded.allowed('https://e.com/private/x', 'bot'), false);
  padded.free();
});

test('a valid blob given to Robots.parse or the face loads as a blob, with its verdicts', () => {
  const src = 'User-agent: BadBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 3\n';
  const blob = Robots.parse(src).compile();
  for (const body of [blob, Buffer.from(blob), blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.length)]) {
    const r = Robots.parse(body);
    assert.equal(r.source, 'blob');
    assert.deepEqual([...r.compile()], [...blob]);
    assert.equal(r.allowed('https://e.com/x', 'BadBot'), false);
    assert.equal(r.allowed('https://e.com/x', 'GoodBot'), true);
    assert.equal(r.allowed('https://e.com/private/x', 'GoodBot'), false);
    r.free();
    const f = robotsParser('https://e.com/robots.txt', body);
    assert.equal(f.isAllowed('https://e.com/x', 'BadBot'), false);
    assert.equal(f.isDisallowed('https://e.com/private/y', 'GoodBot'), true);
    // A blob has no text: crawl-delay is robotsc's reading of it.
    assert.equal(f.getCrawlDelay('GoodBot'), 3);
    f.free();
  }
});

test('blobs of the CLI given to Robots.parse load as blobs, with the CLI\'s verdicts',
  { skip: !cliPath() && NO_CLI }, () => {
    const dir = tmp();
    const out = join(dir, 'x.rbc');
    const txts = readdirSync(GOLDEN).filter((n) => n.endsWith('.txt'));
    assert.ok(txts.length >= 3);
    const urls = ['/', '/private/x', '/a', '/fish/x', '/x?y', '/%41', '/\u03c0', '/caf\u00e9'];
    for (const f of txts) {
      const c = cli(['compile', join(GOLDEN, f), '-o', out]);
      assert.equal(c.status, 0, `${f}: ${c.stderr}`);
      const bytes = readFileSync(out);
      const r = Robots.parse(bytes);
      assert.equal(r.source, 'blob', f);
      assert.ok(Buffer.from(r.compile()).equals(bytes), f);
      for (const a of ['Googlebot', 'FooBot', 'a']) {
        const k = cli(['check', '--exact-agent', a, out], urls.join('\n') + '\n');
        assert.equal(k.status, 0, k.stderr);
        const want = k.stdout.toString().split('\n').filter(Boolean).map((l) => l.startsWith('allow\t'));
        assert.deepEqual(urls.map((u) => r.allowed(u, a)), want, `${f} ${a}`);
      }
      r.free();
    }
  });
