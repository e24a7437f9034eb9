// SPDX-License-Identifier: Apache-2.0
// robotsc/robots-parser against robots-parser's documented behaviour (its
// README's example and method contracts), run beside robots-parser itself
// (a dev dependency); and the documented differences (README.md,
// "robots-parser face"), each with both libraries' answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import robotscParser from '../src/robots-parser.js';

const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser');
const cjsParser = require('robotsc/robots-parser');

const BASE = 'http://www.example.com/robots.txt';
const README = [
  'User-agent: *', 'Disallow: /dir/', 'Disallow: /test.html', 'Allow: /dir/test.html',
  'Allow: /test.html', 'Crawl-delay: 1', 'Sitemap: http://example.com/sitemap.xml', 'Host: example.com',
].join('\n');

test('the documented example, as robots-parser answers it', () => {
  for (const make of [robotscParser, cjsParser, robotsParser]) {
    const r = make(BASE, README);
    assert.equal(r.isAllowed('http://www.example.com/test.html', 'Sams-Bot/1.0'), true);
    assert.equal(r.isAllowed('http://www.example.com/dir/test.html', 'Sams-Bot/1.0'), true);
    assert.equal(r.isDisallowed('http://www.example.com/dir/test2.html', 'Sams-Bot/1.0'), true);
    assert.equal(r.getCrawlDelay('Sams-Bot/1.0'), 1);
    assert.deepEqual(r.getSitemaps(), ['http://example.com/sitemap.xml']);
    assert.equal(r.getPreferredHost(), 'example.com');
    assert.equal(r.getMatchingLineNumber('http://www.example.com/dir/test2.html', 'Sams-Bot/1.0'), 2);
    assert.equal(r.getMatchingLineNumber('http://www.example.com/other', 'Sams-Bot/1.0'), -1);
    // Another origin: undefined (protocol, host and port must all match).
    assert.equal(r.isAllowed('http://other.example.com/test.html'), undefined);
    assert.equal(r.isAllowed('https://www.example.com/test.html'), undefined);
    assert.equal(r.isAllowed('http://www.example.com:8080/test.html'), undefined);
    assert.equal(r.isAllowed('http://www.example.com:80/test.html', 'x'), true);
    // No agent: the '*' groups.
    assert.equal(r.isAllowed('http://www.example.com/dir/x'), false);
  }
});

test('relative robots.txt URL and relative URLs (robots-parser 2.3)', () => {
  const body = 'User-agent: *\nDisallow: /dir/\nDisallow: /test.html\nAllow: /dir/test.html\n';
  for (const make of [robotscParser, robotsParser]) {
    const r = make('/robots.txt', body);
    assert.equal(r.isAllowed('/test.html', 'Sams-Bot/1.0'), false);
    assert.equal(r.isAllowed('/dir/test.html', 'Sams-Bot/1.0'), true);
    assert.equal(r.isDisallowed('/dir/test2.html', 'Sams-Bot/1.0'), true);
  }
});

test('https default port (robots-parser 3.0.1)', () => {
  for (const make of [robotscParser, robotsParser]) {
    const r = make('https://example.com/robots.txt', 'User-agent: *\nDisallow: /x\n');
    assert.equal(r.isAllowed('https://example.com:443/x'), false);
    assert.equal(r.isAllowed('https://example.com/y'), true);
  }
});

// [what, robots.txt, URL, agent, robots-parser's isAllowed, robotsc's]
export const DIFFERENCES = [
  ['whole User-Agent header: robotsc selects the Googlebot group by the product token, robots-parser the part before the first "/" ("mozilla")',
    'User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n', 'https://e.com/page',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', false, true],
  ['a user-agent line\'s value is cut to its [A-Za-z_-] prefix, as Google does ("Foo Bar" names Foo)',
    'User-agent: Foo Bar\nDisallow: /x\n', 'https://e.com/x', 'Foo', true, false],
  ['a directive without a colon is accepted, as Google does',
    'User-agent: *\nDisallow /x\n', 'https://e.com/x', 'bot', true, false],
  ['Google\'s accepted typos ("Disalow", "Useragent", ...) count',
    'User-agent: *\nDisalow: /x\n', 'https://e.com/x', 'bot', true, false],
  ['the URL\'s path is matched as given; robots-parser resolves ".." segments first',
    'User-agent: *\nDisallow: /private\n', 'https://e.com/a/../private', 'bot', false, true],
  ['non-ASCII bytes of the URL are matched as given (Google); the rule\'s are percent-encoded, so pass URLs percent-encoded, as they are requested',
    'User-agent: *\nDisallow: /caf\u00e9\n', 'https://e.com/caf\u00e9', 'bot', false, true],
  ['a space in a rule is matched as a space, not as %20',
    'User-agent: *\nDisallow: /x y\n', 'https://e.com/x%20y', 'bot', false, true],
];

test('documented differences: robots-parser and robotsc answer as README.md says', () => {
  for (const [what, body, url, ua, theirs, ours] of DIFFERENCES) {
    assert.equal(robotsParser('https://e.com/robots.txt', body).isAllowed(url, ua), theirs, `robots-parser: ${what}`);
    assert.equal(robotscParser('https://e.com/robots.txt', body).isAllowed(url, ua), ours, `robotsc: ${what}`);
  }
});

test('other differences: isDisallowed of another origin, invalid crawl-delay, line of the deciding rule', () => {
  const body = 'User-agent: Googlebot\nDisallow: /g\nCrawl-delay: -1\n\nUser-agent: *\nDisallow: /\n';
  const theirs = robotsParser('https://e.com/robots.txt', body);
  const ours = robotscParser('https://e.com/robots.txt', body);
  // robots-parser 3.0.1 answers !undefined === true; its README says undefined.
  assert.equal(theirs.isDisallowed('https://f.com/x'), true);
  assert.equal(ours.isDisallowed('https://f.com/x'), undefined);
  // A negative crawl-delay is not a delay.
  assert.equal(theirs.getCrawlDelay('Googlebot'), -1);
  assert.equal(ours.getCrawlDelay('Googlebot'), undefined);
  const ua = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  assert.equal(theirs.getMatchingLineNumber('https://e.com/g1', ua), 6);
  assert.equal(ours.getMatchingLineNumber('https://e.com/g1', ua), 2);
  ours.free();
});
