// SPDX-License-Identifier: Apache-2.0
// Crawlee's robots.txt check through robotsc: Crawlee (respectRobotsTxtFile)
// asks crawler.getRobotsTxtFileForUrl(url) for an object with
// isAllowed(url, userAgent); this answers with robotsc's verdicts, one
// compiled robots.txt per origin. The fetch outcome maps to a file as
// docs/CRAWLER.md's status policy says: 2xx its body; 4xx but 429 allow
// everything; 429, 5xx and network errors disallow everything (and are not
// kept, so the next request of that origin fetches again). A 2xx body that
// is not robots.txt text (binary, a damaged blob, or a blob: a robots.txt
// URL that serves one is a mistake, as `robotsc fetch` says) is treated as
// an error too: disallow everything, not kept. Read as text, it would
// allow everything; refused, Crawlee would get no answer.
//
// Same conventions as core.js (scripts/cjs.mjs): no imports; the binding
// comes in as an argument.

export function crawleeFace(core) {
  const { Robots, RobotsError } = core;
  const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

  async function fetchRobots(origin, fetchFn) {
    try {
      const res = await fetchFn(origin + '/robots.txt', { redirect: 'follow' });
      if (res.status >= 200 && res.status < 300) {
        return { body: new Uint8Array(await res.arrayBuffer()), keep: true };
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 429) return { body: '', keep: true };
      return { body: DISALLOW_ALL, keep: false };
    } catch {
      return { body: DISALLOW_ALL, keep: false };
    }
  }

  // Makes crawler (any Crawlee crawler created with respectRobotsTxtFile:
  // {userAgent: 'YourBot'}) decide with robotsc. The agent Crawlee passes is
  // matched as the file's user-agent lines are (a product token such as
  // 'YourBot'). Options: fetch (default globalThis.fetch), maxOrigins (the
  // compiled files kept, default 1000; the oldest is freed first).
  // Returns the crawler.
  return function useRobotsc(crawler, options = {}) {
    const fetchFn = options.fetch || globalThis.fetch;
    const max = options.maxOrigins || 1000;
    const cache = new Map(); // origin -> Promise<{isAllowed}>
    crawler.getRobotsTxtFileForUrl = function getRobotsTxtFileForUrl(url) {
      let origin;
      try {
        origin = new URL(url).origin;
      } catch {
        return Promise.resolve(undefined);
      }
      const hit = cache.get(origin);
      if (hit) return hit;
      const p = fetchRobots(origin, fetchFn).then(({ body, keep }) => {
        let robots = null;
        try {
          robots = Robots.parse(body, { warnings: false });
          if (robots.source !== 'text') {
            robots.free();
            robots = null;
          }
        } catch (e) {
          if (!(e instanceof RobotsError)) throw e;
        }
        if (!robots) {
          robots = Robots.parse(DISALLOW_ALL, { warnings: false });
          keep = false;
        }
        const file = {
          robots,
          isAllowed: (u, ua) => robots.allowed(u, ua || '*'),
          getSitemaps: () => robots.sitemaps(),
        };
        if (!keep) {
          cache.delete(origin);
          // Still answers this request; freed by the FinalizationRegistry.
        }
        return file;
      });
      cache.set(origin, p);
      if (cache.size > max) {
        const [oldest, old] = cache.entries().next().value;
        cache.delete(oldest);
        old.then((f) => f.robots.free(), () => {});
      }
      return p;
    };
    return crawler;
  };
}
