// SPDX-License-Identifier: Apache-2.0
// Memory is released deterministically: 100,000 parses in one process (the
// corpus's files in turn when ../shared is there, else generated files),
// each freed, leave the WebAssembly memory the size it had after warm-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Robots, memorySize } from '../src/index.js';
import { corpusDir } from './helpers.js';

Robots.agentWarnings = false;

function files() {
  const c = corpusDir();
  if (c) {
    const dir = join(c, 'robots');
    // Of the 2,000 first files by name, those up to 16 KiB (most of them).
    return readdirSync(dir).sort().slice(0, 2000).map((f) => readFileSync(join(dir, f)))
      .filter((b) => b.length <= 16384);
  }
  const out = [];
  for (let i = 0; i < 500; i++) {
    let s = `User-agent: bot${'x'.repeat(i % 7)}\n`;
    for (let k = 0; k < (i * 37) % 200; k++) s += `${k % 3 ? 'Disallow' : 'Allow'}: /p${k}/*q${i}$\n`;
    s += `Crawl-delay: ${i % 10}\nSitemap: https://e.com/s${i}.xml\n`;
    out.push(Buffer.from(s));
  }
  return out;
}

test('100,000 parses with flat memory', () => {
  const bodies = files();
  const once = (i) => {
    // {text: true}: the corpus's files that look binary are parsed too, as
    // before Robots.parse() refused them (their refusal is below).
    const r = Robots.parse(bodies[i % bodies.length], { text: true });
    r.allowed('https://example.com/p1/q', 'Googlebot');
    r.crawlDelay(['Googlebot', 'bingbot']);
    r.sitemaps();
    r.free();
  };
  // Warm-up: every file once, so that the heap reaches its working size.
  for (let i = 0; i < bodies.length; i++) once(i);
  const warm = memorySize();
  for (let i = 0; i < 100000; i++) once(i);
  assert.equal(memorySize(), warm, `memory grew from ${warm} to ${memorySize()} bytes`);
});

test('refused bodies and blobs leave memory flat', () => {
  const good = Robots.parse('User-agent: *\nDisallow: /x\n').compile();
  const bad = good.slice();
  bad[bad.length - 1] ^= 1;
  const binary = new Uint8Array(2048).map((_, i) => (i * 7) & 0x1f);
  const inputs = [bad, binary, good.subarray(0, 20), new Uint8Array([0x89, 0x52, 0x53, 0x42, 4, 0, 0, 0])];
  const once = (i) => {
    try {
      Robots.parse(inputs[i % inputs.length]).free();
      assert.fail(`input ${i % inputs.length} accepted`);
    } catch (e) {
      assert.equal(e.name, 'RobotsError', String(e));
    }
  };
  for (let i = 0; i < 100; i++) once(i);
  const warm = memorySize();
  for (let i = 0; i < 20000; i++) once(i);
  assert.equal(memorySize(), warm, `memory grew from ${warm} to ${memorySize()} bytes`);
});

test('free() is idempotent; a freed Robots throws', () => {
  const r = Robots.parse('User-agent: *\nDisallow: /x\n');
  r.free();
  r.free();
  assert.equal(r.freed, true);
  assert.throws(() => r.allowed('/x', 'a'), /freed/);
});

test('Symbol.dispose frees', { skip: typeof Symbol.dispose !== 'symbol' && 'no Symbol.dispose' }, () => {
  const r = Robots.parse('User-agent: *\nDisallow: /x\n');
  r[Symbol.dispose]();
  assert.equal(r.freed, true);
});

test('repeated large parses (over 500 KiB) leave memory flat', () => {
  const big = 'User-agent: *\n' + 'Disallow: /x\n'.repeat(200000); // 2.6 MB: parsed up to 500 KiB
  const r = Robots.parse(big);
  assert.ok(r.warnings.some((w) => w.name === 'body-too-large'));
  r.free();
  for (let i = 0; i < 3; i++) Robots.parse(big).free(); // warm-up
  const after = memorySize();
  for (let i = 0; i < 20; i++) Robots.parse(big).free();
  assert.equal(memorySize(), after, 'memory grew over repeated large parses');
});
