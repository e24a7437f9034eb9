// SPDX-License-Identifier: Apache-2.0
// Generated from src/core.js by scripts/cjs.mjs: do not edit.
'use strict';
// robotsc for JavaScript: the binding over the WebAssembly module built from
// the C library (js/src/glue.c). It holds no matching, parsing or format
// logic: it moves bytes in and out of the module's memory and turns the C
// statuses into RobotsError. The same file serves Node and browsers; the
// entry points (index.js, browser.js) only say where the .wasm comes from.
//
// Memory: a Robots owns one block of the module's heap (its blob and the
// verified program) and one per cached selection. free() (or `using`, via
// Symbol.dispose) releases them at once; a FinalizationRegistry releases
// what a caller forgot, later. Scratch space for arguments is one block,
// reused by every call and grown only for a larger argument.
//
// Conventions of this file (js/scripts/cjs.mjs derives the CommonJS copy
// from it): exports are `export function|class|const NAME` at the start of
// a line; there are no imports.

// rsc_classify()'s kinds (include/robotsc/runtime.h).
const INPUT = Object.freeze({ TEXT: 0, BLOB: 1, DAMAGED: 2, BINARY: 3 });

const STATUS = Object.freeze({
  OK: 0, E_ARG: 1, E_NOMEM: 2, E_LIMIT: 3, E_IO: 4, E_TRUNCATED: 10, E_MAGIC: 11,
  E_VERSION: 12, E_CHECKSUM: 13, E_CORRUPT: 14, E_SIZE: 15,
});
const STATUS_NAMES = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [v, 'RSC_' + k]));

// An error of the C library: status (RSC_E_* number), statusName
// ('RSC_E_CHECKSUM'), offset (byte offset in a rejected blob, or
// undefined) and reason (the verifier's words, or undefined).
class RobotsError extends Error {
  constructor(message, status, offset, reason) {
    super(message);
    this.name = 'RobotsError';
    this.status = status;
    this.statusName = STATUS_NAMES[status] || 'RSC_' + status;
    this.offset = offset;
    this.reason = reason;
  }
}

let W = null; // the module's exports
let H8 = null, H32 = null, HF64 = null; // views of its memory, renewed after growth
let SCR = null; // H8 over the scratch block
let scratch = 0, scratchCap = 0; // argument bytes
let words = 0; // 64 bytes of out-words (uint32, or one float64 at words)
const enc = new TextEncoder();
const dec = new TextDecoder('utf-8');

function wasiImports(module) {
  // The module is a WASI reactor; libc's stdio links fd_* but nothing of
  // ours writes to a file. Every WASI function answers ENOSYS.
  const wasi = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind === 'function') wasi[imp.name] = () => 52;
  }
  return { wasi_snapshot_preview1: wasi };
}

function start(instance) {
  W = instance.exports;
  if (W._initialize) W._initialize();
  views();
  words = W.rsj_alloc(64);
  grow(4096);
}

// Instantiates the module from its bytes, synchronously (Node, workers).
function instantiateSync(bytes) {
  if (W) return;
  const module = new WebAssembly.Module(bytes);
  start(new WebAssembly.Instance(module, wasiImports(module)));
}

// Instantiates the module from bytes, a Response or a promise of either.
async function instantiate(source) {
  if (W) return;
  let src = await source;
  let module;
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) throw new Error(`robotsc: cannot fetch robotsc.wasm: HTTP ${src.status}`);
    src = await src.arrayBuffer();
  }
  module = await WebAssembly.compile(src);
  if (W) return;
  start(await WebAssembly.instantiate(module, wasiImports(module)));
}

function isReady() {
  return W !== null;
}

function need() {
  if (!W) throw new Error('robotsc: the WebAssembly module is not ready (await ready() first)');
}

function views() {
  const buf = W.memory.buffer;
  if (H8 === null || H8.buffer !== buf) {
    H8 = new Uint8Array(buf);
    H32 = new Uint32Array(buf);
    HF64 = new Float64Array(buf);
    if (scratch) SCR = H8.subarray(scratch, scratch + scratchCap);
  }
}

function grow(n) {
  if (n <= scratchCap) return;
  let cap = scratchCap || 4096;
  while (cap < n) cap *= 2;
  if (scratch) W.rsj_free(scratch);
  scratch = W.rsj_alloc(cap);
  if (!scratch) {
    scratchCap = 0;
    throw new RobotsError('robotsc: out of memory', STATUS.E_NOMEM);
  }
  scratchCap = cap;
  views();
  SCR = H8.subarray(scratch, scratch + scratchCap);
}

// After an argument of more than 1 MiB, scratch goes back to its usual
// size, so that the heap can reuse the space (the module's memory itself
// never shrinks: WebAssembly has no way to give it back).
function trim() {
  if (scratchCap <= 1 << 20) return;
  W.rsj_free(scratch);
  scratch = 0;
  scratchCap = 0;
  grow(4096);
}

// Writes s (string: UTF-8; Uint8Array, ArrayBuffer, DataView: the bytes) at
// H8[at..]; the caller made room for bytesMax(s). Returns the byte count.
// The encoder writes straight into the module's memory: at scratch through
// a view made once (SCR), elsewhere through a new one.
function put(s, at) {
  if (typeof s === 'string') {
    return enc.encodeInto(s, at === scratch ? SCR : H8.subarray(at, at + 3 * s.length)).written;
  }
  const b = bytesOf(s);
  H8.set(b, at);
  return b.length;
}

function bytesOf(s) {
  if (s instanceof Uint8Array) return s;
  if (s instanceof ArrayBuffer) return new Uint8Array(s);
  if (ArrayBuffer.isView(s)) return new Uint8Array(s.buffer, s.byteOffset, s.byteLength);
  throw new TypeError('robotsc: expected a string or bytes (Uint8Array, ArrayBuffer)');
}

function bytesMax(s) {
  return typeof s === 'string' ? 3 * s.length : bytesOf(s).length;
}

// A URL argument: a string or bytes as given, a URL object (WHATWG) as its
// href, the serialisation a fetch of it requests.
function urlOf(u) {
  if (typeof u === 'string') return u;
  if (typeof URL !== 'undefined' && u instanceof URL) return u.href;
  if (u instanceof Uint8Array || u instanceof ArrayBuffer || ArrayBuffer.isView(u)) return u;
  throw new TypeError(`robotsc: a URL must be a string, a URL object or bytes, not ${u === null ? 'null' : typeof u}`);
}

// The argument in scratch: [ptr, len].
function arg(s) {
  views();
  grow(bytesMax(s) + 1);
  return put(s, scratch);
}

function cstr(p) {
  if (!p) return undefined;
  let e = p;
  while (H8[e] !== 0) e++;
  return dec.decode(H8.subarray(p, e));
}

function text(p, n) {
  return dec.decode(H8.subarray(p, p + n));
}

function profileOf(p) {
  if (p === undefined || p === 'google' || p === 0) return 0;
  if (p === 'rfc' || p === 1) return 1;
  throw new TypeError(`robotsc: profile must be 'google' or 'rfc', not ${String(p)}`);
}

function diagnostics(p, n) {
  const out = [];
  views();
  let at = p;
  while (at < p + n) {
    const w = H32[at >> 2], line = H32[(at >> 2) + 1], dl = H32[(at >> 2) + 2];
    out.push({
      line,
      name: cstr(W.rsj_warning_name(w)),
      message: cstr(W.rsj_warning_message(w)),
      detail: dl ? text(at + 12, dl) : undefined,
    });
    at += 12 + ((dl + 3) & ~3);
  }
  return out;
}

function loadError(what, st, off, reason) {
  const where = off !== 0xffffffff ? ` at byte ${off}` : '';
  const why = reason ? ` (${reason})` : '';
  return new RobotsError(`${what}: ${cstr(W.rsj_strerror(st))}${where}${why}`, st,
    off !== 0xffffffff ? off : undefined, reason);
}

// ---- agents ----------------------------------------------------------------

const warned = new Set();

// One console warning for the names of one selection that can only ever
// get the '*' groups (each name reported once a process), however many
// there are: a list of 100 such names is one warning, not 100.
function checkNames(bad) {
  if (!Robots.agentWarnings) return;
  // '*' asks for the global groups on purpose.
  const fresh = bad.filter((n) => n !== '*' && !warned.has(n));
  if (fresh.length === 0 || warned.size >= 1000) return;
  for (const n of fresh) warned.add(n);
  const show = (n) => JSON.stringify(n.length > 80 ? n.slice(0, 80) + '...' : n);
  const first = fresh[0];
  const what = fresh.length === 1
    ? `crawler name ${show(first)} is ${first ? 'not a token ([A-Za-z_-] only)' : 'empty'}: it`
    : `${fresh.length} crawler names are empty or not tokens ([A-Za-z_-] only), ${show(first)} the first: they`;
  console.warn(`robotsc: ${what} can only ever get the '*' groups. For a whole User-Agent header pass ` +
    '{userAgent: ua} or Robots.agentToken(ua). (Robots.agentWarnings = false silences this.)');
}

// The names to select with: agents is a name, an array of names (one
// crawler known by several names), or {userAgent: header} for a whole
// User-Agent header reduced to its product token (rsc_agent_token).
function namesOf(agents) {
  if (typeof agents === 'string') return [agents];
  if (Array.isArray(agents)) return agents;
  if (agents && typeof agents === 'object' && typeof agents.userAgent === 'string') {
    return [agentToken(agents.userAgent)];
  }
  throw new TypeError('robotsc: agents must be a name, an array of names or {userAgent: string}');
}

// The product token of a crawler name or whole User-Agent header
// ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://...)" gives
// "Googlebot"). Throws RobotsError (RSC_E_ARG) when there is none.
function agentToken(ua) {
  need();
  if (typeof ua !== 'string') throw new TypeError('robotsc: agentToken needs a string');
  const n = arg(ua);
  const st = W.rsj_agent_token(scratch, n, words);
  views();
  if (st !== 0) {
    throw new RobotsError(`robotsc: no crawler token in ${JSON.stringify(ua.slice(0, 80))}: ` +
      cstr(W.rsj_strerror(st)), st);
  }
  const w = words >> 2;
  return text(scratch + H32[w], H32[w + 1]);
}

// Whether name can select a group of its own: non-empty, [A-Za-z_-] only
// (Google's IsValidUserAgentToObey).
function isValidAgent(name) {
  need();
  const n = arg(name);
  return W.rsj_is_valid_agent(scratch, n) === 1;
}

// ---- lint ---------------------------------------------------------------------

// Lint warnings of a robots.txt (as `robotsc lint`) and, with
// {records: true}, each line's lint record in the conformance format.
function lint(body, options = {}) {
  need();
  const profile = profileOf(options.profile);
  const n = arg(body);
  W.rsj_lint(scratch, n, profile, options.records ? 1 : 0, words);
  trim();
  views();
  const w = words >> 2;
  const st = H32[w], dp = H32[w + 1], dn = H32[w + 2], rp = H32[w + 3], rn = H32[w + 4];
  if (st !== 0) throw new RobotsError(`robotsc: cannot parse: ${cstr(W.rsj_strerror(st))}`, st);
  const warnings = diagnostics(dp, dn);
  let records;
  if (options.records) {
    records = text(rp, rn).split('\n');
    records.pop();
  }
  if (dp) W.rsj_free(dp);
  if (rp) W.rsj_free(rp);
  return options.records ? { warnings, records } : { warnings };
}

function version() {
  need();
  return cstr(W.rsj_version());
}

// ---- Robots ---------------------------------------------------------------------

// Whether array a still holds the names of copy (a caller may change an
// array between calls).
function sameNames(a, copy) {
  if (!Array.isArray(a) || !copy || a.length !== copy.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== copy[i]) return false;
  return true;
}

// allowedMany()'s list when it is not an array: any iterable of URLs, but
// not one URL (a string, URL object or bytes are iterable or URL-like, and
// checking a string's characters as URLs is never what was meant).
function urlList(urls) {
  const one = typeof urls === 'string' || (typeof URL !== 'undefined' && urls instanceof URL) ||
    urls instanceof ArrayBuffer || ArrayBuffer.isView(urls);
  if (one || urls == null || typeof urls[Symbol.iterator] !== 'function') {
    const what = urls === null ? 'null' : typeof urls === 'object' ? (urls.constructor?.name ?? 'object') : typeof urls;
    // The words of Python's allowed_many for the same mistake.
    throw new TypeError(`robotsc: allowedMany() takes an iterable of URLs (an array), not ${one ? 'one ' : ''}${what}` +
      (one ? ': pass [url], or call allowed(url, agents)' : ''));
  }
  return Array.from(urls);
}

const registry = typeof FinalizationRegistry !== 'undefined'
  ? new FinalizationRegistry((st) => release(st)) : null;

function release(st) {
  if (!st.ptr) return;
  for (const s of st.sels.values()) W.rsj_free(s);
  st.sels.clear();
  st.lastAgents = undefined;
  st.lastSel = 0;
  W.rsj_robots_free(st.ptr);
  st.ptr = 0;
}

const MAX_SELECTIONS = 256; // cached per Robots; beyond, the cache starts over

// A compiled, verified robots.txt. Make one with Robots.parse(text) or
// Robots.load(blob); the constructor is private.
class Robots {
  #st;

  constructor(token, ptr, warnings, source) {
    if (token !== KEY) throw new TypeError('robotsc: use Robots.parse() or Robots.load()');
    this.#st = { ptr, sels: new Map(), lastAgents: undefined, lastSel: 0, lastNames: undefined };
    this.warnings = warnings;
    // 'text' when compiled from a robots.txt, 'blob' when a blob was loaded.
    this.source = source;
    if (registry) registry.register(this, this.#st, this.#st);
  }

  // Compiles a robots.txt (a string, as UTF-8, or bytes) with the google
  // (default) or rfc profile. The lint warnings found while compiling are
  // in .warnings. Throws RobotsError when a documented limit is exceeded.
  // What body is, is the C library's rule (rsc_classify), as in the CLI and
  // Python: bytes that begin with the blob magic are a blob, loaded as
  // Robots.load() does (RobotsError when it fails verification, never read
  // as text); bytes that look like a damaged blob (a magic a bit or two
  // off) or binary (compressed, UTF-16, control bytes) are refused unless
  // {text: true} reads them as a robots.txt. Without it, a damaged blob
  // compiled as text would be an empty robots.txt: allow everything.
  static parse(body, options = {}) {
    need();
    const profile = profileOf(options.profile);
    const n = arg(body);
    const kind = W.rsj_classify(scratch, n);
    if (kind === INPUT.BLOB) return Robots.#loadScratch(n);
    if (kind !== INPUT.TEXT && !options.text) {
      trim();
      const what = cstr(W.rsj_input_kind_what(kind));
      const st = kind === INPUT.DAMAGED ? STATUS.E_MAGIC : STATUS.E_ARG;
      throw new RobotsError(`robotsc: cannot compile: ${what}, not read as a robots.txt ` +
        '({text: true} reads it as one)', st, kind === INPUT.DAMAGED ? 0 : undefined, what);
    }
    const ptr = W.rsj_parse(scratch, n, profile, options.warnings === false ? 0 : 1, words);
    trim();
    views();
    const w = words >> 2;
    if (!ptr) throw loadError('robotsc: cannot compile', H32[w], H32[w + 1], cstr(H32[w + 2]));
    const dp = H32[w + 3], dn = H32[w + 4];
    const warnings = dp ? diagnostics(dp, dn) : [];
    if (dp) W.rsj_free(dp);
    return new Robots(KEY, ptr, warnings, 'text');
  }

  // Verifies a compiled blob (bytes from compile(), the CLI or any store)
  // and wraps a copy of it. Throws RobotsError with the status, the byte
  // offset and the reason when it is rejected: any bytes are safe to load.
  static load(blob) {
    need();
    return Robots.#loadScratch(arg(blob));
  }

  // Verifies the n bytes at scratch as a blob.
  static #loadScratch(n) {
    const ptr = W.rsj_load(scratch, n, words);
    trim();
    views();
    const w = words >> 2;
    if (!ptr) throw loadError('robotsc: cannot load blob', H32[w], H32[w + 1], cstr(H32[w + 2]));
    return new Robots(KEY, ptr, [], 'blob');
  }

  static agentToken(ua) { return agentToken(ua); }
  static isValidAgent(name) { return isValidAgent(name); }
  static lint(body, options) { return lint(body, options); }

  #ptr() {
    const p = this.#st.ptr;
    if (!p) throw new RobotsError('robotsc: this Robots was freed', STATUS.E_ARG);
    return p;
  }

  #select(agents) {
    // The last crawler asked about, at the cost of a comparison (most
    // callers check many URLs for one crawler name): a name, the same
    // array holding the same names, or a {userAgent} of the same header,
    // without building a key or reducing the header again.
    const st = this.#st;
    if (st.ptr) {
      const last = st.lastAgents;
      if (agents === last) {
        if (typeof agents === 'string' || sameNames(agents, st.lastNames)) return st.lastSel;
      } else if (typeof last === 'object' && last !== null && !Array.isArray(last) && typeof agents === 'object' &&
        agents !== null && !Array.isArray(agents) && agents.userAgent === last.userAgent) {
        return st.lastSel;
      }
    }
    const sel = this.#lookup(agents);
    st.lastAgents = agents;
    st.lastSel = sel;
    st.lastNames = Array.isArray(agents) ? agents.slice() : undefined;
    if (typeof agents === 'object' && agents !== null && !Array.isArray(agents)) {
      st.lastAgents = { userAgent: agents.userAgent };
    }
    return sel;
  }

  #lookup(agents) {
    const ptr = this.#ptr();
    const sels = this.#st.sels;
    const key = typeof agents === 'string' ? agents : namesOf(agents).join('\0') + '\0';
    const hit = sels.get(key);
    if (hit) return hit;
    const names = namesOf(agents);
    if (names.length === 0) throw new RobotsError('robotsc: no crawler name given', STATUS.E_ARG);
    const max = W.rsj_max_select();
    if (names.length > max) {
      throw new RobotsError(`robotsc: cannot select: ${names.length} crawler names, more than the ` +
        `limit of ${max} in one selection`, STATUS.E_LIMIT);
    }
    let total = 0;
    for (const a of names) {
      if (typeof a !== 'string') throw new TypeError('robotsc: a crawler name must be a string');
      total += bytesMax(a);
    }
    grow(total + 4 * names.length + 8);
    const lens = scratch;
    let at = scratch + 4 * names.length;
    let bad = null;
    for (let i = 0; i < names.length; i++) {
      const k = put(names[i], at);
      H32[(lens >> 2) + i] = k;
      at += k;
      if (!W.rsj_is_valid_agent(at - k, k)) (bad ??= []).push(names[i]);
    }
    const sel = W.rsj_select(ptr, scratch + 4 * names.length, lens, names.length, words);
    views();
    if (!sel) {
      const st = H32[words >> 2];
      const why = st === STATUS.E_LIMIT
        ? ` (the names select more than ${max} groups or user-agent tokens: the limit of one selection)` : '';
      throw new RobotsError(`robotsc: cannot select: ${cstr(W.rsj_strerror(st))}${why}`, st);
    }
    if (bad) checkNames(bad);
    if (sels.size >= MAX_SELECTIONS) {
      for (const s of sels.values()) W.rsj_free(s);
      sels.clear();
      this.#st.lastAgents = undefined;
    }
    sels.set(key, sel);
    return sel;
  }

  // Whether agents (a crawler name as the file's user-agent lines are
  // matched, an array of names, or {userAgent}) may fetch url.
  // url: a string (its UTF-8 bytes are matched as given, as the C library
  // matches them), a URL object (its href) or bytes.
  allowed(url, agents) {
    const sel = this.#select(agents);
    // The common case in a few steps: the URL's UTF-8 straight into the
    // scratch block, one call.
    // (SCR.length, not scratchCap: a view left over from before the memory
    // grew is detached, length 0, and takes the slow path, which renews it.)
    const n = typeof url === 'string' && 3 * url.length < SCR.length
      ? enc.encodeInto(url, SCR).written : arg(urlOf(url));
    return W.rsj_match(sel, scratch, n, 0) === 1;
  }

  // The verdicts of many URLs for one crawler, in one call into the module:
  // an array of booleans. urls is an array (or any iterable) of URLs as
  // allowed() takes them; a string is refused (TypeError), as Python's
  // allowed_many refuses one, rather than checked character by character.
  allowedMany(urls, agents) {
    if (!Array.isArray(urls)) urls = urlList(urls);
    const sel = this.#select(agents);
    views();
    const count = urls.length;
    let total = 0, strings = true;
    for (let i = 0; i < count; i++) {
      const u = urls[i];
      if (typeof u === 'string') total += u.length;
      else { strings = false; break; }
    }
    if (!strings) {
      urls = urls.map(urlOf);
      total = 0;
      for (let i = 0; i < count; i++) {
        const u = urls[i];
        total += typeof u === 'string' ? 3 * u.length : bytesMax(u);
      }
    } else {
      total *= 3;
    }
    // Layout: the URLs' bytes first (at scratch, so that the encoder writes
    // through SCR, the view kept for it), then their offsets (count + 1
    // words, aligned) and the verdicts (count bytes).
    grow(total + 4 * (count + 1) + count + 8);
    const data = scratch;
    let at = -1;
    // All strings: one encoder call for the whole list; when it wrote one
    // byte per character (ASCII), each URL's bytes are where its characters are.
    if (strings && count > 0) {
      const joined = urls.join('');
      const n = enc.encodeInto(joined, SCR).written;
      if (n === joined.length) {
        const o = ((data + n + 3) & ~3) >> 2;
        for (let i = 0, k = 0; i < count; i++) {
          H32[o + i] = k;
          k += urls[i].length;
        }
        H32[o + count] = n;
        at = o << 2;
      }
    }
    if (at === -1) {
      // Some URL is not ASCII, or bytes: each in turn, then the offsets.
      let k = data;
      const lens = new Array(count);
      for (let i = 0; i < count; i++) {
        const w = put(urls[i], k);
        lens[i] = w;
        k += w;
      }
      const o = ((k + 3) & ~3) >> 2;
      let off = 0;
      for (let i = 0; i < count; i++) {
        H32[o + i] = off;
        off += lens[i];
      }
      H32[o + count] = off;
      at = o << 2;
    }
    const out = at + 4 * (count + 1);
    W.rsj_match_many(sel, data, at, count, out);
    // (rsj_match_many allocates nothing: the views are still those of the memory.)
    const res = new Array(count);
    for (let i = 0; i < count; i++) res[i] = H8[out + i] === 1;
    trim();
    return res;
  }

  // Why url is allowed or not: {allowed, decided, line, rule ('allow',
  // 'disallow' or null), pattern (escaped, or null), priority}.
  explain(url, agents) {
    const sel = this.#select(agents);
    const n = arg(urlOf(url));
    const ok = W.rsj_match(sel, scratch, n, words) === 1;
    views();
    const w = words >> 2;
    const decided = H32[w] === 1;
    return {
      allowed: ok,
      decided,
      line: H32[w + 1],
      rule: decided ? (H32[w + 2] ? 'allow' : 'disallow') : null,
      pattern: decided ? text(H32[w + 4], H32[w + 5]) : null,
      priority: H32[w + 3],
    };
  }

  // Whether agents have groups of their own (a user-agent line of the file
  // names one of them); when not, the '*' groups apply to them.
  hasOwnGroup(agents) {
    return W.rsj_named(this.#select(agents)) === 1;
  }

  // 'allowed' when every URL is allowed for agents, 'disallowed' when every
  // one is disallowed, else 'mixed'.
  uniform(agents) {
    const u = W.rsj_uniform(this.#select(agents));
    return u === 1 ? 'allowed' : u === 0 ? 'disallowed' : 'mixed';
  }

  // Seconds of the crawl-delay that applies to agents, or undefined.
  crawlDelay(agents) {
    const sel = this.#select(agents);
    if (!W.rsj_crawl_delay(sel, words)) return undefined;
    views();
    return HF64[words >> 3];
  }

  // {requests, seconds} of the request-rate that applies, or undefined.
  requestRate(agents) {
    const sel = this.#select(agents);
    if (!W.rsj_request_rate(sel, words, words + 8)) return undefined;
    views();
    return { requests: H32[words >> 2], seconds: HF64[(words + 8) >> 3] };
  }

  // The value of the first directive named key (crawl-delay, host, ...) in
  // the groups that apply to agents: {value, line}, or undefined.
  groupDirective(agents, key) {
    const sel = this.#select(agents);
    const n = arg(key);
    H8[scratch + n] = 0;
    if (!W.rsj_group_directive(sel, scratch, words)) return undefined;
    views();
    const w = words >> 2;
    return { value: text(H32[w], H32[w + 1]), line: H32[w + 2] };
  }

  // Sitemap URLs, in file order (sitemapRecords() adds their lines).
  sitemaps() {
    return this.sitemapRecords().map((s) => s.url);
  }

  sitemapRecords() {
    const p = this.#ptr();
    const out = [];
    const n = W.rsj_sitemap_count(p);
    for (let i = 0; i < n; i++) {
      W.rsj_sitemap_get(p, i, words);
      views();
      const w = words >> 2;
      out.push({ line: H32[w], url: text(H32[w + 1], H32[w + 2]) });
    }
    return out;
  }

  // Other directives (crawl-delay, host, clean-param, ...): {line, key, value}.
  directives() {
    const p = this.#ptr();
    const out = [];
    const n = W.rsj_directive_count(p);
    for (let i = 0; i < n; i++) {
      W.rsj_directive_get(p, i, words);
      views();
      const w = words >> 2;
      out.push({ line: H32[w], key: text(H32[w + 1], H32[w + 2]), value: text(H32[w + 3], H32[w + 4]) });
    }
    return out;
  }

  // The blob's bytes (a copy): what Robots.load() and the C library load.
  compile() {
    const p = this.#ptr();
    const b = W.rsj_blob(p), n = W.rsj_blob_size(p);
    views();
    return H8.slice(b, b + n);
  }

  get profile() {
    return W.rsj_profile(this.#ptr()) ? 'rfc' : 'google';
  }

  get size() {
    return W.rsj_blob_size(this.#ptr());
  }

  get freed() {
    return this.#st.ptr === 0;
  }

  // Releases the module memory now. Idempotent; the object is unusable after.
  free() {
    if (!this.#st.ptr) return;
    if (registry) registry.unregister(this.#st);
    release(this.#st);
  }
}

const KEY = Symbol('robotsc');
if (typeof Symbol.dispose === 'symbol') {
  Robots.prototype[Symbol.dispose] = function dispose() { this.free(); };
}
// Warn once per crawler name that can only ever get the '*' groups.
Robots.agentWarnings = true;

// Bytes of the module's memory (for tests of flat memory).
function memorySize() {
  need();
  return W.memory.buffer.byteLength;
}

module.exports = { STATUS, RobotsError, instantiateSync, instantiate, isReady, agentToken, isValidAgent, lint, version, Robots, memorySize };
