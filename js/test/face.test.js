// SPDX-License-Identifier: Apache-2.0
// robotsc/robots-parser against robots-parser's documented behaviour (its
// README's example and method contracts), run beside robots-parser itself
// (a dev dependency); what Google's verdicts do not decide (another origin,
// explicit mode, crawl-delay) asked of both and equal; and the documented
// differences (README.md, "robots-parser face"), each with both libraries'
// answers.
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

test('other differences: the line of the deciding rule for a whole User-Agent header', () => {
  const body = 'User-agent: Googlebot\nDisallow: /g\nCrawl-delay: -1\n\nUser-agent: *\nDisallow: /\n';
  const theirs = robotsParser('https://e.com/robots.txt', body);
  const ours = robotscParser('https://e.com/robots.txt', body);
  const ua = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  assert.equal(theirs.getMatchingLineNumber('https://e.com/g1', ua), 6);
  assert.equal(ours.getMatchingLineNumber('https://e.com/g1', ua), 2);
  ours.free();
});

// Behaviour Google's verdicts do not decide is robots-parser's: each case is
// asked of both libraries and the answers must be equal.
function same(body, ask, what, robotsUrl = 'https://e.com/robots.txt') {
  const theirs = robotsParser(robotsUrl, body);
  const ours = robotscParser(robotsUrl, body);
  try {
    assert.deepEqual(ask(ours), ask(theirs), what);
  } finally {
    ours.free();
  }
}

test('isDisallowed of another origin or an invalid URL is true, as in robots-parser', () => {
  const body = 'User-agent: *\nDisallow: /x\n';
  const urls = ['https://f.com/x', 'http://e.com/x', 'https://e.com:8443/x', 'not a url', 'https://e.com/y',
    'https://e.com/x', 'https://e.com:443/x'];
  same(body, (r) => urls.map((u) => [r.isAllowed(u), r.isDisallowed(u)]), 'isAllowed/isDisallowed');
  same(body, (r) => urls.map((u) => r.isDisallowed(u, 'bot')), 'port 8080', 'http://e.com:8080/robots.txt');
  const ours = robotscParser('https://e.com/robots.txt', body);
  assert.equal(ours.isDisallowed('https://f.com/x'), true);
  assert.equal(ours.isAllowed('https://f.com/x'), undefined);
  ours.free();
});

test('isExplicitlyDisallowed: the agent\'s own groups only, as in robots-parser', () => {
  const body = [
    'User-agent: *', 'Disallow: /', '', 'User-agent: SomeBot', 'Disallow: /private', 'Allow: /private/ok', '',
    'User-agent: EmptyBot', 'Disallow:',
  ].join('\n');
  const urls = ['https://e.com/', 'https://e.com/private', 'https://e.com/private/ok', 'https://e.com/x',
    'https://other.com/private', 'http://e.com/private'];
  // robots-parser's answers (its explicit mode is in its repository and
  // test suite, not in the npm release 3.0.1 that is the dev dependency).
  const want = {
    SomeBot: [false, true, false, false, undefined, undefined],
    'somebot/1.2': [false, true, false, false, undefined, undefined],
    OtherBot: [false, false, false, false, undefined, undefined],
    EmptyBot: [false, false, false, false, undefined, undefined],
    undefined: [true, true, true, true, undefined, undefined],
    '*': [true, true, true, true, undefined, undefined],
  };
  const ours = robotscParser('https://e.com/robots.txt', body);
  for (const [a, v] of Object.entries(want)) {
    const agent = a === 'undefined' ? undefined : a;
    assert.deepEqual(urls.map((u) => ours.isExplicitlyDisallowed(u, agent)), v, `explicit ${a}`);
  }
  assert.equal(ours.isExplicitlyDisallowed('https://e.com/private', 'SomeBot'), true);
  assert.equal(ours.isExplicitlyDisallowed('https://e.com/x', 'OtherBot'), false);
  assert.equal(ours.isExplicitlyDisallowed('https://e.com/x'), true); // no agent: the '*' groups are its own
  assert.equal(ours.isExplicitlyDisallowed('https://other.com/x', 'SomeBot'), undefined);
  ours.free();
});

test('getCrawlDelay answers as robots-parser does (Google has no crawl-delay)', () => {
  const bodies = [
    'user-agent: a\ncrawl-delay: 1\nuser-agent: b\ndisallow: /d\nuser-agent: c\nuser-agent: d\ncrawl-delay: 10\n',
    'user-agent: *\ncrawl-delay: 1\nuser-agent: b\ncrawl-delay: 12\nuser-agent: c\nuser-agent: d\ncrawl-delay: 10',
    'user-agent: *\ncrawl-delay: 1\n\nuser-agent: b\ndisallow:\n',
    'user-agent: a\ncrawl-delay: 1.2.1\nuser-agent: b\ncrawl-delay: 1.a0\nuser-agent: c\ncrawl-delay: 10a\n',
    // Several values (the last counts), negative, empty, exponent, comments, CR line ends.
    'User-agent: a\r\nCrawl-delay: 5\r\nDisallow: /\r\nCrawl-delay: 7 # seven\r\nUser-agent: b\rCrawl-delay: -1\r' +
      'User-agent: c\nCrawl-delay:\nUser-agent: d\nCrawl-delay: 1e1\nUser-agent: e\nCrawl-delay 4\n',
    'Crawl-delay: 9\nUser-agent: *\nSitemap: https://e.com/s.xml\nCrawl-delay: 2\n',
  ];
  const agents = ['a', 'b', 'c', 'd', 'e', 'dd', 'should-fall-back/1.0.0', 'd/12', 'b / 1.0', 'A', undefined, '*',
    'Mozilla/5.0 (compatible; a/2.1)'];
  for (const [i, body] of bodies.entries()) {
    same(body, (r) => agents.map((a) => r.getCrawlDelay(a)), `crawl-delay, body ${i}`);
  }
  const ours = robotscParser('https://e.com/robots.txt', bodies[1]);
  assert.equal(ours.getCrawlDelay('dd / 0-32-3'), 1);
  assert.equal(ours.getCrawlDelay('b'), 12);
  ours.free();
});

test('relative URLs that are paths are matched as given (the C library\'s bytes)', () => {
  const body = 'User-agent: *\nDisallow: /private\nDisallow: /%CF%80\n';
  const r = robotscParser('/robots.txt', body);
  assert.equal(r.isAllowed('/a/../private'), true); // no '..' resolution, as for absolute URLs
  assert.equal(r.isAllowed('https://e.com/a/../private'), undefined);
  assert.equal(r.isAllowed('/\u03c0'), true); // raw bytes: not the rule's %CF%80
  assert.equal(r.isAllowed('/%CF%80'), false);
  assert.equal(r.isAllowed('private'), false); // resolved against the robots.txt URL
  r.free();
});
