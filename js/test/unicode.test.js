// SPDX-License-Identifier: Apache-2.0
// Non-ASCII URLs: one rule in every binding, the C library's. A URL's UTF-8
// bytes are matched as given (raw "/π" is not "/%CF%80"; the rule side is
// percent-encoded by the compiler, as Google's library does), so the
// verdicts of allowed(), allowedMany(), bytes, URL strings with raw
// characters and the robots-parser face (absolute and relative URLs) are
// each equal to the CLI's `check` on the same bytes, for both profiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Robots } from '../src/index.js';
import robotsParser from '../src/robots-parser.js';
import { cli, cliPath, NO_CLI, tmp } from './helpers.js';

Robots.agentWarnings = false;

const BODY = [
  'User-agent: *',
  'Disallow: /\u03c0',
  'Disallow: /%CF%81',
  'Disallow: /caf\u00e9$',
  'Allow: /caf\u00e9/ok',
  'Disallow: /%e2%9d%83',
  'Disallow: /\u{1F4A9}',
  'Disallow: /\u273c*t$',
  'Disallow: /x/%C3%BC*',
  'Disallow: /\u00fc/raw',
  'Disallow: /%a%a',
  '',
  'User-agent: FooBot',
  'Disallow: /\u00e9t\u00e9',
  'Allow: /%C3%A9t%C3%A9/ok',
].join('\n') + '\n';

const PATHS = [
  '/\u03c0', '/%CF%80', '/%cf%80', '/\u03c0/index.html', '/\u03c1', '/%CF%81', '/%cf%81x',
  '/caf\u00e9', '/caf%C3%A9', '/caf\u00e9/ok', '/caf%C3%A9/ok', '/caf\u00e9x',
  '/\u275d', '/%E2%9D%83', '/%e2%9d%83', '/\u{1F4A9}', '/%F0%9F%92%A9/x',
  '/\u273ctest', '/\u273ctesting', '/%E2%9C%BCtest', '/x/\u00fc1', '/x/%C3%BC1', '/\u00fc/raw', '/%C3%BC/raw',
  '/%a%a', '/%A%A', '/\u00e9t\u00e9', '/%C3%A9t%C3%A9', '/%C3%A9t%C3%A9/ok', '/\u00e9t\u00e9/ok',
  '/?q=\u03c0', '/a b', '/a%20b',
];

test('non-ASCII URLs: JS, bytes, allowedMany and the face equal the CLI', { skip: !cliPath() && NO_CLI }, () => {
  const dir = tmp();
  const txt = join(dir, 'robots.txt');
  writeFileSync(txt, BODY);
  const urls = PATHS.map((p) => 'https://e.com' + p);
  let compared = 0, differsFromEncoded = 0;
  for (const profile of ['google', 'rfc']) {
    const r = Robots.parse(BODY, { profile });
    for (const agent of ['Googlebot', 'FooBot']) {
      const c = cli(['check', '--profile', profile, '--exact-agent', agent, txt],
        Buffer.from(urls.join('\n') + '\n', 'utf8'));
      assert.equal(c.status, 0, c.stderr);
      const want = c.stdout.toString().split('\n').filter(Boolean).map((l) => l.startsWith('allow\t'));
      assert.equal(want.length, urls.length);
      assert.deepEqual(urls.map((u) => r.allowed(u, agent)), want, `${profile} ${agent}: allowed()`);
      assert.deepEqual(r.allowedMany(urls, agent), want, `${profile} ${agent}: allowedMany()`);
      assert.deepEqual(urls.map((u) => r.allowed(Buffer.from(u, 'utf8'), agent)), want,
        `${profile} ${agent}: bytes`);
      assert.deepEqual(r.allowedMany(urls.map((u) => new TextEncoder().encode(u)), agent), want,
        `${profile} ${agent}: allowedMany(bytes)`);
      if (profile === 'google') {
        const f = robotsParser('https://e.com/robots.txt', BODY);
        assert.deepEqual(urls.map((u) => f.isAllowed(u, agent)), want, `face ${agent}: absolute`);
        f.free();
        // Relative URLs need a relative robots.txt URL (robots-parser's rule).
        const rel = robotsParser('/robots.txt', BODY);
        assert.deepEqual(PATHS.map((p) => rel.isAllowed(p, agent)), want, `face ${agent}: relative`);
        rel.free();
        // The rule the bindings share is not "percent-encode, then match":
        // some raw URL gets another verdict than its encoded form.
        for (let i = 0; i < urls.length; i++) {
          const enc = new URL(urls[i]).href;
          if (enc !== urls[i] && r.allowed(enc, agent) !== want[i]) differsFromEncoded++;
        }
      }
      compared += urls.length;
    }
    r.free();
  }
  assert.ok(compared >= 4 * PATHS.length);
  assert.ok(differsFromEncoded > 0, 'raw and percent-encoded URLs got the same verdicts everywhere');
});
