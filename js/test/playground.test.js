// SPDX-License-Identifier: Apache-2.0
// The tester page (playground/) in headless Chromium (Debian's
// /usr/bin/chromium, driven by puppeteer-core; no browser is downloaded):
// typing the bundled example and its URLs gives the CLI's verdicts and
// deciding lines (`robotsc check --explain`), and so do a few corpus files;
// the page is usable from the keyboard, every control has a label, and it
// works offline once loaded. Screenshots go to test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { JS, REPO, cli, cliPath, corpusDir, corpusLists, NO_CLI, tmp } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM} (apt install chromium): skipped` : false;
const skipCli = skip || (!cliPath() && NO_CLI);
const ART = join(JS, 'test-artifacts');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };

let server, base, browser, page;

before(async () => {
  if (skip) return;
  mkdirSync(ART, { recursive: true });
  server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const file = normalize(join(JS, p));
    if (!file.startsWith(JS) || !existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  const puppeteer = (await import('puppeteer-core')).default;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  await page.goto(`${base}/playground/`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
});

// Sets a control's text: typed key by key (typing) or at once.
async function fill(sel, text, typing) {
  await page.$eval(sel, (e) => { e.value = ''; });
  if (typing) {
    await page.focus(sel);
    await page.keyboard.type(text);
  } else {
    await page.$eval(sel, (e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }, text);
  }
}

// The page's verdicts once it has drawn n URLs x agents.
async function verdicts(n) {
  await page.waitForFunction((k) => document.querySelectorAll('#verdicts td[data-verdict]').length === k &&
    !document.querySelector('#status').textContent.startsWith('Cannot'), { timeout: 20000 }, n);
  await new Promise((r) => setTimeout(r, 300)); // the input's debounce: let a last render land
  return page.$$eval('#verdicts tbody tr', (rows) => rows.map((tr) =>
    [...tr.querySelectorAll('td[data-verdict]')].map((td) => [td.dataset.verdict, Number(td.dataset.line)])));
}

// What the CLI answers for the page's own text (as the textarea holds it).
async function cliVerdicts(urls, agents) {
  const text = await page.$eval('#robots', (e) => e.value);
  const f = join(tmp(), 'robots.txt');
  writeFileSync(f, text);
  const cols = agents.map((a) => {
    const r = cli(['check', '--explain', '--exact-agent', a, f], urls.join('\n') + '\n');
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.toString().split('\n').filter(Boolean).map((l) => {
      const m = /\tline (\d+): /.exec(l);
      return [l.startsWith('allow\t') ? 'allow' : 'disallow', m ? Number(m[1]) : 0];
    });
  });
  return urls.map((_, i) => cols.map((c) => c[i]));
}

test('the bundled example, typed: the CLI\'s verdicts and deciding lines', { skip: skipCli, timeout: 120000 }, async () => {
  const robots = readFileSync(join(REPO, 'examples', 'robots.txt'), 'utf8');
  const urls = readFileSync(join(REPO, 'examples', 'urls.txt'), 'utf8').split('\n').filter(Boolean);
  const agents = ['Googlebot', 'bingbot', 'ExampleBot'];
  await fill('#robots', robots.replace(/\r\n?/g, '\n'), true);
  await fill('#urls', urls.join('\n'), true);
  await fill('#agents', agents.join(', '), true);
  const got = await verdicts(urls.length * agents.length);
  assert.deepEqual(got, await cliVerdicts(urls, agents));
  assert.ok(got.flat().some(([v]) => v === 'disallow') && got.flat().some(([v]) => v === 'allow'));
  // Every deciding line is highlighted in the file.
  const lines = new Set(got.flat().map(([, l]) => l).filter(Boolean));
  const marked = await page.$$eval('#file li.decide', (lis) => lis.map((li) => Number(li.id.slice(1))));
  assert.deepEqual([...marked].sort(), [...lines].sort());
  await page.screenshot({ path: join(ART, 'playground-example.png'), fullPage: true });
  // The README's picture (js/playground/screenshot.png is a copy of it): the verdicts and the file.
  const top = await page.$eval('#verdicts-h', (h) => h.getBoundingClientRect().top + window.scrollY - 8);
  await page.screenshot({ path: join(ART, 'screenshot.png'), clip: { x: 0, y: top, width: 1100, height: 760 } });
});

test('lint warnings inline, crawl-delay and sitemaps shown', { skip, timeout: 60000 }, async () => {
  await fill('#robots', 'User-agent: *\nDisalow: /x\nCrawl-delay: 3\nSitemap: https://e.com/s.xml\nfoo\n');
  await fill('#urls', 'https://e.com/x');
  await fill('#agents', 'Googlebot');
  await verdicts(1);
  const warns = await page.$$eval('#file li', (lis) => lis.map((li) =>
    [...li.querySelectorAll('.warn')].map((w) => w.dataset.warning)));
  assert.deepEqual(warns, [[], ['typo'], [], [], ['invalid-line']]);
  assert.equal(await page.$eval('dd[data-crawl-delay]', (d) => d.dataset.crawlDelay), '3');
  assert.match(await page.$eval('#facts', (d) => d.textContent), /https:\/\/e\.com\/s\.xml/);
});

test('keyboard: a verdict\'s line button moves the focus to that line; every control is labelled', { skip, timeout: 60000 }, async () => {
  await fill('#robots', 'User-agent: *\nAllow: /a\nDisallow: /\n');
  await fill('#urls', 'https://e.com/b');
  await fill('#agents', 'Googlebot');
  await verdicts(1);
  await page.focus('#agents');
  // Tab forward to the first line button, then Enter.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.dataset?.goto)) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement.dataset.goto), '3');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'L3');
  assert.equal(await page.$eval('#L3', (li) => li.classList.contains('current')), true);
  const unlabelled = await page.$$eval('textarea, input, select', (cs) =>
    cs.filter((c) => c.labels.length === 0).map((c) => c.id));
  assert.deepEqual(unlabelled, []);
});

test('corpus files: the CLI\'s verdicts', { skip: skipCli || (!corpusDir() && 'no corpus (../shared): skipped'), timeout: 120000 }, async () => {
  const lists = corpusLists(corpusDir()).filter((l) => {
    const b = readFileSync(l.robots);
    return b.length < 20000 && !b.includes(13) && Buffer.from(b.toString('utf8')).equals(b);
  });
  const pick = [0, 7, 31, 63, 127].map((i) => lists[i % lists.length]);
  const agents = ['Googlebot', 'bingbot'];
  for (const l of pick) {
    const urls = readFileSync(l.urls, 'utf8').split('\n').filter(Boolean).slice(0, 40);
    await fill('#robots', readFileSync(l.robots, 'utf8'));
    await fill('#urls', urls.join('\n'));
    await fill('#agents', agents.join(', '));
    // Wait until this file's URLs are drawn.
    await page.waitForFunction((u) => document.querySelector('#verdicts tbody td.url')?.textContent === u,
      { timeout: 20000 }, urls[0]);
    assert.deepEqual(await verdicts(urls.length * agents.length), await cliVerdicts(urls, agents), l.name);
  }
  await page.screenshot({ path: join(ART, 'playground-corpus.png'), fullPage: false });
});

test('the browser entries: robotsc and robotsc/robots-parser after ready()', { skip, timeout: 60000 }, async () => {
  const got = await page.evaluate(async () => {
    const rp = await import('/src/robots-parser-browser.js');
    await rp.ready();
    const robots = rp.default('https://e.com/robots.txt', 'User-agent: *\nDisalow: /x\n');
    const { Robots, version } = await import('/src/browser.js');
    const r = Robots.parse('User-agent: Foo\nDisallow: /y\n');
    return [robots.isAllowed('https://e.com/x', 'Bot/1.0'), robots.isAllowed('https://f.com/x') === undefined,
      r.allowed('https://e.com/y', 'Foo'), r.compile().length > 0, version()];
  });
  // the WASM's C library is the package's version
  const pkg = JSON.parse(readFileSync(join(JS, 'package.json'), 'utf8'));
  assert.deepEqual(got, [false, true, false, true, pkg.version]);
});

test('works offline once loaded', { skip, timeout: 60000 }, async () => {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  await page.setOfflineMode(true);
  try {
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    await fill('#robots', 'User-agent: *\nDisallow: /off\n');
    await fill('#urls', 'https://e.com/off');
    await fill('#agents', 'Googlebot');
    assert.deepEqual(await verdicts(1), [[['disallow', 2]]]);
  } finally {
    await page.setOfflineMode(false);
  }
});
