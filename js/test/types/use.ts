// SPDX-License-Identifier: Apache-2.0
// Compiled (not run) by test/types.test.js: the declarations describe the API.
import { Robots, RobotsError, STATUS, agentToken, lint, ready, type Explanation } from 'robotsc';
import robotsParser from 'robotsc/robots-parser';
import { useRobotsc } from 'robotsc/crawlee';

await ready();
const r: Robots = Robots.parse('User-agent: *\nDisallow: /x\n', { profile: 'google' });
const ok: boolean = r.allowed('https://e.com/x', 'Googlebot') && r.allowed(new URL('https://e.com/y'), 'Googlebot');
const own: boolean = r.hasOwnGroup('Googlebot');
const src: 'text' | 'blob' = r.source;
const fromSet: boolean[] = r.allowedMany(new Set(['https://e.com/x', new URL('https://e.com/z')]), 'Googlebot');
const lenient: Robots = Robots.parse(new Uint8Array([0xff, 0xfe]), { text: true });
const many: boolean[] = r.allowedMany(['https://e.com/x'], ['Googlebot', 'bingbot']);
const why: Explanation = r.explain('https://e.com/x', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
const delay: number | undefined = r.crawlDelay('Googlebot');
const blob: Uint8Array = r.compile();
const token: string = agentToken('Googlebot/2.1');
const warnings = lint('x', { records: true }).warnings.map((w) => w.name);
try {
  Robots.load(blob);
} catch (e) {
  if (e instanceof RobotsError && e.status === STATUS.E_CHECKSUM) console.log(e.offset, e.reason);
}
r.free();
const rp = robotsParser('https://e.com/robots.txt', 'User-agent: *');
const a: boolean | undefined = rp.isAllowed('https://e.com/', 'Bot/1.0');
const d: boolean = rp.isDisallowed(new URL('https://e.com/'), 'Bot/1.0');
const x: boolean | undefined = rp.isExplicitlyDisallowed('https://e.com/', 'Bot');
const rb = robotsParser('https://e.com/robots.txt', new Uint8Array(0), { text: true });
const crawler = useRobotsc({ name: 'a crawler' });
console.log(ok, own, src, fromSet, lenient, many, why.line, delay, token, warnings, a, d, x, rb, crawler.name);
