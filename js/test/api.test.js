// SPDX-License-Identifier: Apache-2.0
// The binding's API: crawler names matched as given, whole User-Agent
// headers only on request, the warning for names that can only get '*',
// errors with their C status, explanations and the file's records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Robots, RobotsError, STATUS, agentToken, isValidAgent, lint } from '../src/index.js';

const BODY = [
  'User-agent: FooBot', 'Disallow: /private', 'Allow: /private/ok', 'Crawl-delay: 2.5',
  'Request-rate: 3/1m', '', 'User-agent: *', 'Disallow: /', 'Allow: /public$',
  'Sitemap: https://example.com/a.xml', 'Host: Example.COM', 'Disalow: /typo',
].join('\n');

function warningsOf(fn) {
  const seen = [];
  const orig = console.warn;
  console.warn = (m) => seen.push(String(m));
  try { fn(); } finally { console.warn = orig; }
  return seen;
}

test('a crawler name is matched as given; {userAgent} reduces a header', () => {
  const r = Robots.parse(BODY);
  assert.equal(r.allowed('https://example.com/private', 'FooBot'), false);
  assert.equal(r.allowed('https://example.com/private/ok', 'foobot'), true);
  assert.equal(r.allowed('https://example.com/x', 'FooBot'), true);
  assert.equal(r.allowed('https://example.com/x', 'OtherBot'), false);
  // Google's library never cuts the caller's name: "FooBot/1.0" names no group.
  const w = warningsOf(() => assert.equal(r.allowed('https://example.com/x', 'FooBot/1.0'), false));
  assert.equal(w.length, 1);
  assert.match(w[0], /FooBot\/1\.0.*only ever get the '\*' groups/);
  // Once per name.
  assert.equal(warningsOf(() => r.allowed('https://example.com/y', 'FooBot/1.0')).length, 0);
  assert.equal(warningsOf(() => r.allowed('https://example.com/y', '')).length, 1);
  const ua = 'Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)';
  assert.equal(r.allowed('https://example.com/x', { userAgent: ua }), true);
  assert.equal(agentToken(ua), 'FooBot');
  assert.equal(agentToken('FooBot/1.0'), 'FooBot');
  assert.throws(() => agentToken('/1.0'), (e) => e instanceof RobotsError && e.status === STATUS.E_ARG);
  assert.equal(isValidAgent('Foo_Bar-x'), true);
  assert.equal(isValidAgent('Foo1'), false);
  // Several names of one crawler: their groups merge.
  assert.equal(r.allowed('https://example.com/public', ['OtherBot', 'FooBot']), true);
  assert.deepEqual(r.allowedMany(['https://example.com/private', 'https://example.com/public', '/z'], 'FooBot'),
    [false, true, true]);
  r.free();
});

test('explain, crawl-delay, request-rate, sitemaps, directives, warnings', () => {
  const r = Robots.parse(BODY);
  assert.deepEqual(r.explain('https://example.com/private/x', 'FooBot'),
    { allowed: false, decided: true, line: 2, rule: 'disallow', pattern: '/private', priority: 8 });
  assert.deepEqual(r.explain('https://example.com/y', 'FooBot'),
    { allowed: true, decided: false, line: 0, rule: null, pattern: null, priority: 0 });
  assert.equal(r.explain('https://example.com/public', 'X').line, 9);
  assert.equal(r.crawlDelay('FooBot'), 2.5);
  assert.equal(r.crawlDelay('X'), undefined);
  assert.deepEqual(r.requestRate('FooBot'), { requests: 3, seconds: 60 });
  assert.deepEqual(r.sitemaps(), ['https://example.com/a.xml']);
  assert.deepEqual(r.directives().map((d) => d.key), ['Crawl-delay', 'Request-rate', 'Host']);
  assert.deepEqual(r.groupDirective('FooBot', 'crawl-delay'), { value: '2.5', line: 4 });
  assert.deepEqual(r.warnings.map((d) => [d.line, d.name]), [[12, 'typo']]);
  assert.equal(r.uniform('FooBot'), 'mixed');
  assert.equal(Robots.parse('User-agent: *\nDisallow: /\n').uniform('a'), 'disallowed');
  assert.equal(r.profile, 'google');
  assert.equal(Robots.parse(BODY, { profile: 'rfc' }).profile, 'rfc');
  // rfc profile: /robots.txt is always allowed.
  assert.equal(Robots.parse(BODY, { profile: 'rfc' }).allowed('https://example.com/robots.txt', 'X'), true);
  assert.equal(r.allowed('https://example.com/robots.txt', 'X'), false);
  assert.throws(() => Robots.parse(BODY, { profile: 'bing' }), TypeError);
  r.free();
});

test('bytes in, non-ASCII text, lint', () => {
  const r = Robots.parse(new TextEncoder().encode('User-agent: *\nDisallow: /caf\u00e9\n'));
  assert.equal(r.allowed('https://e.com/caf%C3%A9/x', 'a'), false);
  // google profile: the URL's bytes as given (Google does not encode them).
  assert.equal(r.allowed('https://e.com/caf\u00e9/x', 'a'), true);
  const rfc = Robots.parse('User-agent: *\nDisallow: /caf\u00e9\n', { profile: 'rfc' });
  assert.equal(rfc.allowed('https://e.com/caf\u00e9/x', 'a'), false);
  rfc.free();
  assert.equal(r.allowed('https://e.com/cafe', 'a'), true);
  r.free();
  const l = lint('User-agent: a\nDisalow: /x\nfoo\nAllow: nope\n');
  assert.deepEqual(l.warnings.map((d) => d.name), ['typo', 'invalid-line', 'dead-pattern']);
  assert.equal(l.records, undefined);
  assert.equal(lint('a', { records: true }).records.length, 1);
});

test('errors carry the C status', () => {
  try {
    Robots.load(new Uint8Array(3));
    assert.fail('loaded');
  } catch (e) {
    assert.ok(e instanceof RobotsError);
    assert.equal(typeof e.status, 'number');
    assert.match(e.statusName, /^RSC_E_/);
  }
  assert.throws(() => Robots.parse('x').allowed('/', []), (e) => e.status === STATUS.E_ARG);
  assert.throws(() => Robots.parse('x').allowed('/', 5), TypeError);
  assert.throws(() => new Robots(), TypeError);
});

test('allowedMany takes an array (or iterable) of URLs; one URL is a TypeError', () => {
  const r = Robots.parse(BODY);
  for (const one of ['https://example.com/private', new URL('https://example.com/private'),
    new TextEncoder().encode('https://example.com/private'), 42, null, undefined, { length: 2 }]) {
    assert.throws(() => r.allowedMany(one, 'FooBot'), (e) => e instanceof TypeError &&
      /allowedMany\(\) takes an iterable of URLs \(an array\)/.test(e.message), String(one));
  }
  // A string names what to do instead.
  assert.throws(() => r.allowedMany('https://example.com/x', 'FooBot'), /not one string: pass \[url\], or call allowed\(url, agents\)/);
  const urls = ['https://example.com/private', 'https://example.com/x', 'https://example.com/private/ok'];
  const want = [false, true, true];
  assert.deepEqual(r.allowedMany(urls, 'FooBot'), want);
  assert.deepEqual(r.allowedMany(new Set(urls), 'FooBot'), want);
  assert.deepEqual(r.allowedMany(urls.values(), 'FooBot'), want);
  assert.deepEqual(r.allowedMany([], 'FooBot'), []);
  r.free();
});

test('URL objects are accepted wherever a URL is (their href)', () => {
  const r = Robots.parse(BODY);
  const urls = ['https://example.com/private', 'https://example.com/private/ok', 'https://example.com/x',
    'https://example.com/caf\u00e9', 'https://example.com/public?q=1'];
  for (const u of urls) {
    const o = new URL(u);
    for (const a of ['FooBot', 'X']) {
      assert.equal(r.allowed(o, a), r.allowed(o.href, a), `${u} ${a}`);
      assert.deepEqual(r.explain(o, a), r.explain(o.href, a), `${u} ${a}`);
    }
  }
  assert.equal(r.allowed(new URL('https://example.com/private'), 'FooBot'), false);
  assert.equal(r.allowed(new URL('https://example.com/public'), 'X'), true);
  // Mixed lists: strings, URL objects, bytes.
  assert.deepEqual(r.allowedMany(['https://example.com/private', new URL('https://example.com/private/ok'),
    new TextEncoder().encode('https://example.com/private/no')], 'FooBot'), [false, true, false]);
  assert.throws(() => r.allowed({ href: 'https://example.com/' }, 'FooBot'), TypeError);
  r.free();
});

test('many invalid crawler names: one warning; over the limit, an error that names it', () => {
  const r = Robots.parse(BODY);
  const names = Array.from({ length: 20 }, (_, i) => `bad name ${i}`);
  const w = warningsOf(() => assert.equal(r.allowed('https://example.com/public', names), true));
  assert.equal(w.length, 1, w.join('\n'));
  assert.match(w[0], /20 crawler names .*"bad name 0" the first/);
  const many = Array.from({ length: 100 }, (_, i) => `other bad name ${i}`);
  let e;
  const w2 = warningsOf(() => {
    e = assert.throws(() => r.allowed('https://example.com/', many),
      (x) => x instanceof RobotsError && x.status === STATUS.E_LIMIT &&
        /100 crawler names, more than the limit of 32/.test(x.message));
  });
  assert.equal(e, undefined);
  assert.ok(w2.length <= 1, w2.join('\n'));
  r.free();
});

test('the last selection is reused only for the same names', () => {
  const r = Robots.parse(BODY);
  const names = ['OtherBot'];
  assert.equal(r.allowed('https://example.com/x', names), false);
  // The same array, changed: selected again.
  names[0] = 'FooBot';
  assert.equal(r.allowed('https://example.com/x', names), true);
  names.push('X');
  assert.equal(r.allowed('https://example.com/x', names), true);
  names.length = 1;
  names[0] = 'X';
  assert.equal(r.allowed('https://example.com/x', names), false);
  const ua = (t) => ({ userAgent: `Mozilla/5.0 (compatible; ${t}/2.1)` });
  assert.equal(r.allowed('https://example.com/x', ua('FooBot')), true);
  assert.equal(r.allowed('https://example.com/x', ua('FooBot')), true);
  assert.equal(r.allowed('https://example.com/x', ua('OtherBot')), false);
  const u = ua('FooBot');
  assert.equal(r.allowed('https://example.com/x', u), true);
  u.userAgent = 'OtherBot/1.0';
  assert.equal(r.allowed('https://example.com/x', u), false);
  assert.equal(r.allowed('https://example.com/x', 'FooBot'), true);
  assert.equal(r.allowed('https://example.com/x', 'X'), false);
  r.free();
});
