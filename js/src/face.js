// SPDX-License-Identifier: Apache-2.0
// The robots-parser face: robots-parser's factory and methods, with
// robotsc's (Google's) verdicts. Everything Google's verdicts do not decide
// is robots-parser's: the robots.txt URL and the checked URLs must share
// protocol, host and port (else isAllowed answers undefined, isDisallowed
// true, as robots-parser does); crawl-delay is robots-parser's (Google has
// none); isExplicitlyDisallowed looks at the agent's own groups only. An
// agent is a whole User-Agent string or a product token, reduced to its
// product token for verdicts (agentToken: "Mozilla/5.0 (compatible;
// Googlebot/2.1; ...)" selects the Googlebot groups); no agent means the
// '*' groups. README.md, "robots-parser face", lists where verdicts differ
// and why. The robots.txt goes through Robots.parse()'s checks: a blob
// loads as a blob, a damaged blob or binary content throws RobotsError
// (robotsParser(url, body, {text: true}) reads it as text).
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

  const isBytes = (x) => x instanceof ArrayBuffer || ArrayBuffer.isView(x);

  // robots-parser's reading of a crawler name for its groups: lower case,
  // up to the first '/', trimmed.
  function rpAgent(ua) {
    const s = String(ua).toLowerCase();
    const k = s.indexOf('/');
    return (k < 0 ? s : s.slice(0, k)).trim();
  }

  // Crawl-delay as robots-parser answers it (Google's library has none, so
  // its users' expectations decide): its groups (consecutive user-agent
  // lines open one; "key: value" lines, '#' comments), the last value of a
  // crawler's own groups read by Number() (not a number: ignored), the '*'
  // groups only when the crawler has no group at all. A Map from agent to
  // {delay}.
  function crawlDelays(text) {
    const groups = new Map();
    let agents = [];
    let inAgents = false;
    for (const raw of text.split(/\r\n|\r|\n/)) {
      const hash = raw.indexOf('#');
      const line = hash < 0 ? raw : raw.slice(0, hash);
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (!key) continue;
      if (key === 'user-agent') {
        if (!inAgents) agents = [];
        if (value) agents.push(rpAgent(value));
      } else if (key === 'allow' || key === 'disallow' || key === 'crawl-delay') {
        for (const a of agents) {
          if (!groups.has(a)) groups.set(a, {});
          const n = Number(value);
          if (key === 'crawl-delay' && !Number.isNaN(n)) groups.get(a).delay = n;
        }
      }
      inAgents = key === 'user-agent';
    }
    return groups;
  }

  class RobotsParser {
    constructor(url, contents, options) {
      this._origin = origin(url);
      // Bytes stay bytes (a blob is loaded as one); anything else is text.
      const body = contents == null ? '' : isBytes(contents) ? contents : String(contents);
      this._robots = Robots.parse(body, { warnings: false, text: !!(options && options.text) });
      // Read now rather than keep the text; most files have no crawl-delay.
      // A blob has no text: its crawl-delay is robotsc's (the first value
      // of the crawler's merged groups).
      this._delays = null;
      if (this._robots.source === 'text') {
        const t = typeof body === 'string' ? body : new TextDecoder().decode(body);
        this._delays = /crawl-delay/i.test(t) ? crawlDelays(t) : new Map();
      }
    }

    // The explanation of url for ua, or undefined for a URL of another origin.
    _explain(url, ua) {
      const o = origin(url);
      const me = this._origin;
      if (!o || !me || o.protocol !== me.protocol || o.hostname !== me.hostname || o.port !== me.port) {
        return undefined;
      }
      return this._robots.explain(this._target(url, o), agentOf(ua));
    }

    // What is matched: an absolute URL, or a relative one that is a path,
    // as given (its UTF-8 bytes, the C library's rule: Google's path
    // extraction, no percent-encoding or '..' resolution); another relative
    // URL by its resolved path and query.
    _target(url, o) {
      const s = String(url);
      if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) || (s[0] === '/' && s[1] !== '/')) return s;
      return o.url.pathname + o.url.search;
    }

    isAllowed(url, ua) {
      const m = this._explain(url, ua);
      return m === undefined ? undefined : m.allowed;
    }

    // robots-parser's: !isAllowed, so true for a URL of another origin.
    isDisallowed(url, ua) {
      return !this.isAllowed(url, ua);
    }

    // Whether url is disallowed by the agent's own groups, the '*' groups
    // left out (robots-parser's explicit mode): false when no group names
    // the agent, undefined for a URL of another origin.
    isExplicitlyDisallowed(url, ua) {
      const m = this._explain(url, ua);
      if (m === undefined) return undefined;
      const agent = agentOf(ua);
      if (agent !== '*' && !this._robots.hasOwnGroup(agent)) return false;
      return !m.allowed;
    }

    // The line of the deciding rule, -1 when no rule decides (or the URL is
    // of another origin).
    getMatchingLineNumber(url, ua) {
      const m = this._explain(url, ua);
      return m && m.decided ? m.line : -1;
    }

    getCrawlDelay(ua) {
      if (!this._delays) return this._robots.crawlDelay(agentOf(ua));
      const g = this._delays.get(rpAgent(ua || '*')) || this._delays.get('*');
      return g ? g.delay : undefined;
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

  // options (robotsc only): {text: true} reads contents that look binary
  // or like a damaged blob as a robots.txt instead of throwing.
  return function robotsParser(url, contents, options) {
    return new RobotsParser(url, contents, options);
  };
}
