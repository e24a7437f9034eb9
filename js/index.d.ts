// SPDX-License-Identifier: Apache-2.0
// Types of the robotsc package (src/core.js, src/index.js, src/browser.js).

/** Status codes of the C library (RSC_* in robotsc/runtime.h). */
export declare const STATUS: Readonly<{
  OK: 0; E_ARG: 1; E_NOMEM: 2; E_LIMIT: 3; E_IO: 4; E_TRUNCATED: 10; E_MAGIC: 11;
  E_VERSION: 12; E_CHECKSUM: 13; E_CORRUPT: 14; E_SIZE: 15;
}>;

/** An error of the C library, with its status and, for a rejected blob, where and why. */
export declare class RobotsError extends Error {
  /** RSC_* status number (STATUS). */
  readonly status: number;
  /** 'RSC_E_CHECKSUM', ... */
  readonly statusName: string;
  /** Byte offset in a rejected blob, else undefined. */
  readonly offset: number | undefined;
  /** The verifier's reason for a rejected blob, else undefined. */
  readonly reason: string | undefined;
}

/**
 * Who is asking: a crawler name matched exactly as Google's library matches it
 * (case-insensitively against the file's user-agent tokens; never cut or rewritten),
 * several names of one crawler, or a whole User-Agent header reduced to its product token.
 */
export type Agents = string | readonly string[] | { userAgent: string };

export type Profile = 'google' | 'rfc';

export interface Diagnostic {
  /** 1-based source line, 0 for the whole file. */
  line: number;
  /** Warning name: 'typo', 'missing-colon', 'unknown-directive', ... */
  name: string;
  message: string;
  detail: string | undefined;
}

export interface Explanation {
  allowed: boolean;
  /** True when a rule decided (false: no rule applies, allowed). */
  decided: boolean;
  /** Source line of the deciding rule, 0 when none. */
  line: number;
  rule: 'allow' | 'disallow' | null;
  /** The deciding rule's escaped pattern, null when none. */
  pattern: string | null;
  priority: number;
}

export interface ParseOptions {
  profile?: Profile;
  /** Collect lint warnings into .warnings (default true). */
  warnings?: boolean;
  /**
   * Read bytes that look binary (gzip, UTF-16, control bytes) or like a damaged blob as a
   * robots.txt instead of throwing RobotsError (default false). A valid blob always loads.
   */
  text?: boolean;
}

/** A URL: a string (its UTF-8 bytes are matched as given), a URL object (its href) or bytes. */
export type UrlLike = string | URL | Uint8Array | ArrayBuffer;

export declare class Robots {
  private constructor();
  /**
   * Compiles a robots.txt (a string is encoded as UTF-8). Bytes that are a blob load as one
   * (Robots.load); a damaged blob or binary content throws RobotsError unless {text: true}.
   */
  static parse(body: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Robots;
  /** Verifies a compiled blob (from compile(), `robotsc compile` or a store). Throws RobotsError. */
  static load(blob: Uint8Array | ArrayBuffer): Robots;
  /** Product token of a name or whole User-Agent header; throws RobotsError when there is none. */
  static agentToken(ua: string): string;
  /** Whether name can select a group of its own (non-empty, [A-Za-z_-] only). */
  static isValidAgent(name: string): boolean;
  static lint(body: string | Uint8Array | ArrayBuffer, options?: LintOptions): LintResult;
  /** console.warn once per crawler name that can only ever get the '*' groups (default true). */
  static agentWarnings: boolean;

  /** Lint warnings found while compiling (parse() only). */
  readonly warnings: Diagnostic[];
  readonly profile: Profile;
  /** Blob size in bytes. */
  readonly size: number;
  readonly freed: boolean;
  /** 'text' when compiled from a robots.txt, 'blob' when a blob was loaded. */
  readonly source: 'text' | 'blob';

  allowed(url: UrlLike, agents: Agents): boolean;
  /** One call for many URLs (an array or iterable, not one URL string: TypeError); the verdicts in order. */
  allowedMany(urls: Iterable<UrlLike>, agents: Agents): boolean[];
  explain(url: UrlLike, agents: Agents): Explanation;
  /** Whether a user-agent line names the agents (else the '*' groups apply to them). */
  hasOwnGroup(agents: Agents): boolean;
  /** 'allowed' or 'disallowed' when every URL gets that verdict, else 'mixed'. */
  uniform(agents: Agents): 'allowed' | 'disallowed' | 'mixed';
  /** Seconds, or undefined when no valid crawl-delay applies. */
  crawlDelay(agents: Agents): number | undefined;
  requestRate(agents: Agents): { requests: number; seconds: number } | undefined;
  groupDirective(agents: Agents, key: string): { value: string; line: number } | undefined;
  sitemaps(): string[];
  sitemapRecords(): { line: number; url: string }[];
  directives(): { line: number; key: string; value: string }[];
  /** The blob's bytes (a copy). */
  compile(): Uint8Array;
  /** Releases the WebAssembly memory now; idempotent. */
  free(): void;
  [Symbol.dispose](): void;
}

export interface LintOptions {
  profile?: Profile;
  /** Also return each line's lint record (conformance format). */
  records?: boolean;
}

export interface LintResult {
  warnings: Diagnostic[];
  records?: string[];
}

export declare function agentToken(ua: string): string;
export declare function isValidAgent(name: string): boolean;
export declare function lint(body: string | Uint8Array | ArrayBuffer, options?: LintOptions): LintResult;
/** The C library's version (the package's: "1.0.0"). */
export declare function version(): string;
/** Bytes of the WebAssembly memory. */
export declare function memorySize(): number;
/**
 * Resolves once the WebAssembly module is instantiated: at once in Node; browsers fetch
 * ../dist/robotsc.wasm beside the module, or `source` (URL, bytes or Response).
 */
export declare function ready(source?: string | URL | Uint8Array | ArrayBuffer | Response | Promise<Response>): Promise<void>;
