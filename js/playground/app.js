// SPDX-License-Identifier: Apache-2.0
// The tester page: every verdict, deciding line, lint warning and record
// comes from the robotsc WebAssembly module (../src/browser.js); this file
// only reads the form and draws the answers.
import { ready, Robots, agentToken, lint } from '../src/browser.js';

const $ = (id) => document.getElementById(id);
const EXAMPLE = [
  '# An example: edit it, or paste your own file.',
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/press/',
  'Disallow: /*.pdf$',
  'Crawl-delay: 2',
  '',
  'User-agent: Googlebot',
  'Disalow: /drafts/',
  'Allow: /',
  '',
  'Sitemap: https://example.com/sitemap.xml',
].join('\n');
const EXAMPLE_URLS = [
  'https://example.com/',
  'https://example.com/private/plans.html',
  'https://example.com/private/press/release.html',
  'https://example.com/docs/manual.pdf',
  'https://example.com/drafts/post',
].join('\n');

function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'tabindex') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}

function showLine(n) {
  for (const li of document.querySelectorAll('#file li.current')) li.classList.remove('current');
  const li = $(`L${n}`);
  if (!li) return;
  li.classList.add('current');
  li.scrollIntoView({ block: 'center' });
  li.focus();
}

function names() {
  return $('agents').value.split(',').map((s) => s.trim()).filter(Boolean);
}

function render() {
  const text = $('robots').value;
  const profile = $('profile').value;
  const uaMode = $('ua-mode').checked;
  const urls = $('urls').value.split('\n').map((s) => s.trim()).filter(Boolean);
  const agents = names();
  let robots;
  try {
    robots = Robots.parse(text, { profile, warnings: false });
  } catch (e) {
    $('status').textContent = `Cannot compile: ${e.message}`;
    return;
  }
  try {
    // Which crawler each column stands for, as the engine sees it.
    const cols = agents.map((a) => {
      if (!uaMode) return { label: a, arg: a };
      try {
        const t = agentToken(a);
        return { label: `${a} (token ${t})`, arg: t };
      } catch {
        return { label: `${a} (no product token: only the * groups)`, arg: '*' };
      }
    });
    const decide = new Set();
    const head = el('tr', {}, el('th', { scope: 'col' }, 'URL'),
      ...cols.map((c) => el('th', { scope: 'col' }, c.label)));
    const rows = urls.map((u) => el('tr', {}, el('td', { class: 'url' }, u), ...cols.map((c) => {
      const x = robots.explain(u, c.arg);
      const verdict = x.allowed ? 'allow' : 'disallow';
      const td = el('td', { 'data-verdict': verdict, 'data-line': String(x.line) },
        el('span', { class: verdict }, verdict));
      if (x.decided) {
        decide.add(x.line);
        td.append(' ', el('button', {
          type: 'button', class: 'line', 'data-goto': String(x.line),
          'aria-label': `Show line ${x.line}, ${x.rule}: ${x.pattern}`,
          onclick: () => showLine(x.line),
        }, `line ${x.line}`), ` ${x.rule}: ${x.pattern}`);
      } else {
        td.append(' (no rule applies)');
      }
      return td;
    })));
    $('verdicts').tHead.replaceChildren(head);
    $('verdicts').tBodies[0].replaceChildren(...rows);

    // The file, line by line as the parser counts them, warnings inline.
    const { warnings } = lint(text, { profile });
    const byLine = new Map();
    for (const w of warnings) {
      if (!byLine.has(w.line)) byLine.set(w.line, []);
      byLine.get(w.line).push(w);
    }
    const lines = text.split(/\r\n|\r|\n/);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const items = lines.map((line, i) => {
      const n = i + 1;
      const li = el('li', { id: `L${n}`, tabindex: '-1', class: decide.has(n) ? 'decide' : '' }, line || '\u200b');
      for (const w of byLine.get(n) ?? []) {
        li.append(el('span', { class: 'warn', 'data-warning': w.name },
          `${w.message}${w.detail ? `: ${w.detail}` : ''} [${w.name}]`));
      }
      return li;
    });
    $('file').replaceChildren(...items);

    const facts = [];
    for (const c of cols) {
      const d = robots.crawlDelay(c.arg);
      const r = robots.requestRate(c.arg);
      facts.push(el('dt', {}, `${c.label}: crawl-delay`), el('dd', { 'data-crawl-delay': String(d ?? '') },
        d === undefined ? 'none' : `${d} s`));
      if (r) facts.push(el('dt', {}, `${c.label}: request-rate`), el('dd', {}, `${r.requests} per ${r.seconds} s`));
    }
    const maps = robots.sitemapRecords();
    facts.push(el('dt', {}, 'Sitemaps'), el('dd', {}, maps.length
      ? el('ul', {}, ...maps.map((s) => el('li', {}, el('button', {
        type: 'button', class: 'line', onclick: () => showLine(s.line) }, `line ${s.line}`), ` ${s.url}`)))
      : 'none'));
    const whole = byLine.get(0) ?? [];
    if (whole.length) facts.push(el('dt', {}, 'Whole file'), el('dd', {}, whole.map((w) => w.message).join('; ')));
    $('facts').replaceChildren(...facts);
    const n = urls.length * cols.length;
    const dis = document.querySelectorAll('#verdicts td[data-verdict=disallow]').length;
    $('status').textContent = `${n} verdict${n === 1 ? '' : 's'}: ${n - dis} allowed, ${dis} disallowed; ` +
      `${warnings.length} lint warning${warnings.length === 1 ? '' : 's'}.`;
  } finally {
    robots.free();
  }
}

let timer = 0;
function later() {
  clearTimeout(timer);
  timer = setTimeout(render, 120);
}

async function fetchRobots() {
  const url = $('robots-url').value.trim();
  if (!url) return;
  $('status').textContent = `Fetching ${url}...`;
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    $('robots').value = await res.text();
    render();
  } catch (e) {
    $('status').textContent = `Cannot fetch ${url}: ${e.message} (the site may not allow cross-origin reads: paste the file instead).`;
  }
}

await ready();
if (!$('robots').value) $('robots').value = EXAMPLE;
if (!$('urls').value) $('urls').value = EXAMPLE_URLS;
for (const id of ['robots', 'urls', 'agents']) $(id).addEventListener('input', later);
for (const id of ['ua-mode', 'profile']) $(id).addEventListener('change', render);
$('fetch').addEventListener('click', fetchRobots);
$('robots-url').addEventListener('keydown', (e) => { if (e.key === 'Enter') fetchRobots(); });
render();
document.body.dataset.ready = '1';
if ('serviceWorker' in navigator && location.protocol.startsWith('http')) {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}
