// SPDX-License-Identifier: Apache-2.0
// Types of robotsc/robots-parser: robots-parser's interface, Google's verdicts.

export interface Robot {
  /** undefined for a URL of another origin (or an invalid one). */
  isAllowed(url: string | URL, ua?: string): boolean | undefined;
  /** !isAllowed: true for a URL of another origin, as in robots-parser. */
  isDisallowed(url: string | URL, ua?: string): boolean;
  /** Disallowed by the agent's own groups ('*' left out); undefined for another origin. */
  isExplicitlyDisallowed(url: string | URL, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  getPreferredHost(): string | null;
  /** robotsc only: releases the WebAssembly memory now. */
  free(): void;
}

export interface RobotsParserOptions {
  /** robotsc only: read bytes that look binary or like a damaged blob as text instead of throwing. */
  text?: boolean;
}

/** robotstxt: the text, or bytes (a blob given as bytes loads as a blob). */
declare function robotsParser(url: string, robotstxt: string | Uint8Array | null | undefined,
  options?: RobotsParserOptions): Robot;
export default robotsParser;
export { robotsParser };
/** Resolves once the WebAssembly module is ready (at once in Node; browsers must await it). */
export declare function ready(): Promise<void>;
