// SPDX-License-Identifier: Apache-2.0
// A real crawl by Crawlee (HttpCrawler, from npm) of a site served on
// 127.0.0.1 by this test, with robots.txt decided by robotsc
// (robotsc/crawlee): the server's log must hold exactly the allowed pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { tmp } from './helpers.js';

process.env.CRAWLEE_STORAGE_DIR = tmp('robotsc-crawlee-');
const { HttpCrawler, Configuration, log } = await import('@crawlee/http');
const { useRobotsc } = await import('robotsc/crawlee');

const ROBOTS = [
  'User-agent: *', 'Disallow: /', '',
  'User-agent: TestBot', 'Disallow: /private', 'Allow: /private/public', 'Disallow: /*.pdf$',
  // Google accepts this typo of Disallow (robots-parser does not).
  'Disalow: /typo', '',
].join('\n');

const LINKS = {
  '/': ['/a', '/private', '/private/public', '/doc.pdf', '/typo/x', '/b?q=1'],
  '/a': ['/c', '/private/x', '/doc.pdf?v=2'],
  '/c': ['/', '/a'],
  '/private/public': ['/private/public/deeper'],
  '/private/public/deeper': [],
  '/b?q=1': [],
};

function serve() {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url);
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(ROBOTS);
      return;
    }
    const links = LINKS[req.url] ?? [];
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>${req.url}</title>` + links.map((l) => `<a href="${l}">${l}</a>`).join(' '));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, seen })));
}

test('Crawlee fetches exactly the pages robotsc allows', { timeout: 120000 }, async () => {
  const { server, seen } = await serve();
  const base = `http://127.0.0.1:${server.address().port}`;
  log.setLevel(log.LEVELS.OFF);
  const handled = [];
  const skipped = [];
  try {
    const crawler = useRobotsc(new HttpCrawler({
      respectRobotsTxtFile: { userAgent: 'TestBot' },
      maxConcurrency: 2,
      maxRequestRetries: 0,
      onSkippedRequest: ({ url, reason }) => { skipped.push([new URL(url).pathname + new URL(url).search, reason]); },
      async requestHandler({ request, body, enqueueLinks }) {
        handled.push(new URL(request.loadedUrl ?? request.url).pathname + new URL(request.url).search);
        const hrefs = [...String(body).matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1], request.url).href);
        await enqueueLinks({ urls: hrefs });
      },
    }, new Configuration({ persistStorage: false })));
    await crawler.run([`${base}/`]);
  } finally {
    server.close();
  }
  // '/doc.pdf?v=2' does not end in .pdf: '$' anchors the pattern at the path's end.
  const pages = ['/', '/a', '/b?q=1', '/c', '/doc.pdf?v=2', '/private/public', '/private/public/deeper'];
  assert.deepEqual([...new Set(seen)].sort(), ['/robots.txt', ...pages].sort());
  assert.equal(seen.filter((u) => u === '/robots.txt').length, 1, 'robots.txt fetched once');
  assert.deepEqual([...new Set(handled)].sort(), pages.sort());
  for (const p of ['/private', '/private/x', '/doc.pdf', '/typo/x']) {
    assert.ok(!seen.includes(p), `${p} was fetched`);
  }
});

test('a robots.txt body that is not text (binary, a damaged blob, a blob) disallows everything and is fetched again', async () => {
  const { gzipSync } = await import('node:zlib');
  const { Robots } = await import('robotsc');
  const txt = 'User-agent: *\nDisallow: /private\n';
  const blob = Robots.parse(txt).compile();
  const damaged = blob.slice();
  damaged[0] ^= 2;
  const flipped = blob.slice();
  flipped[blob.length - 3] ^= 1;
  const bodies = {
    text: Buffer.from(txt), gzip: gzipSync(txt), utf16: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(txt, 'utf16le')]),
    damaged, flipped, blob,
  };
  for (const [what, body] of Object.entries(bodies)) {
    let fetches = 0;
    const fetch = async () => { fetches++; return new Response(body, { status: 200 }); };
    const crawler = useRobotsc({}, { fetch });
    const f = await crawler.getRobotsTxtFileForUrl('https://e.com/x');
    const ok = what === 'text';
    assert.equal(f.isAllowed('https://e.com/x', 'TestBot'), ok, what);
    assert.equal(f.isAllowed('https://e.com/private', 'TestBot'), false, what);
    await crawler.getRobotsTxtFileForUrl('https://e.com/y');
    assert.equal(fetches, ok ? 1 : 2, `${what}: fetched ${fetches} times`);
  }
});
