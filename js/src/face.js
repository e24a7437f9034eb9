// SPDX-License-Identifier: Apache-2.0
// The robots-parser face: robots-parser's factory and methods, with
// robotsc's (Google's) verdicts. Argument conventions are robots-parser's:
// the robots.txt URL and the checked URLs must share protocol, host and port
// (else isAllowed/isDisallowed answer undefined); an agent is a whole
// User-Agent string or a product token, reduced to its product token
// (agentToken: "Mozilla/5.0 (compatible; Googlebot/2.1; ...)" selects the
// Googlebot groups); no agent means the '*' groups. README.md, "robots-parser
// face", lists where verdicts differ and why.
//
// Same conventions as core.js (scripts/cjs.mjs): no imports; the binding
// comes in as an argument.

export function face(core) {
  const { Robots, agentToken } = core;
  // Relative robots.txt and checked URLs resolve against one base, so that
  // they share an origin (robots-parser's convention).
  const BASE = 'http://robots-relative.invalid/';

  function origin(u) {
    try {
      const x = new URL(String(u), BASE);
      const port = x.port || (x.protocol === 'https:' ? '443' : x.protocol === 'http:' ? '80' : '');
      return { protocol: x.protocol, hostname: x.hostname, port, url: x };
    } catch {
      return null;
    }
  }

  function agentOf(ua) {
    if (!ua || ua === '*') return '*';
    try {
      return agentToken(String(ua));
    } catch {
      return '*'; // no product token: only the '*' groups can apply
    }
  }

  class RobotsParser {
    constructor(url, contents) {
      this._origin = origin(url);
      this._robots = Robots.parse(contents == null ? '' : String(contents), { warnings: false });
    }

    // The explanation of url for ua, or undefined for a URL of another origin.
    _explain(url, ua) {
      const o = origin(url);
      const me = this._origin;
      if (!o || !me || o.protocol !== me.protocol || o.hostname !== me.hostname || o.port !== me.port) {
        return undefined;
      }
      // An absolute URL is matched as given (Google's path extraction); a
      // relative one by its resolved path and query.
      const s = String(url);
      const target = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) ? s : o.url.pathname + o.url.search;
      return this._robots.explain(target, agentOf(ua));
    }

    isAllowed(url, ua) {
      const m = this._explain(url, ua);
      return m === undefined ? undefined : m.allowed;
    }

    isDisallowed(url, ua) {
      const m = this._explain(url, ua);
      return m === undefined ? undefined : !m.allowed;
    }

    // The line of the deciding rule, -1 when no rule decides (or the URL is
    // of another origin).
    getMatchingLineNumber(url, ua) {
      const m = this._explain(url, ua);
      return m && m.decided ? m.line : -1;
    }

    getCrawlDelay(ua) {
      return this._robots.crawlDelay(agentOf(ua));
    }

    getSitemaps() {
      return this._robots.sitemaps();
    }

    // The last Host: directive's value, lower-cased, or null.
    getPreferredHost() {
      let host = null;
      for (const d of this._robots.directives()) {
        if (d.key.toLowerCase() === 'host' && d.value) host = d.value.toLowerCase();
      }
      return host;
    }

    // Not in robots-parser: releases the module memory now (otherwise it is
    // released when the object is garbage-collected).
    free() {
      this._robots.free();
    }
  }

  return function robotsParser(url, contents) {
    return new RobotsParser(url, contents);
  };
}
