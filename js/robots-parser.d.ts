// SPDX-License-Identifier: Apache-2.0
// Types of robotsc/robots-parser: robots-parser's interface, Google's verdicts.

export interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  getPreferredHost(): string | null;
  /** robotsc only: releases the WebAssembly memory now. */
  free(): void;
}

declare function robotsParser(url: string, robotstxt: string): Robot;
export default robotsParser;
export { robotsParser };
/** Resolves once the WebAssembly module is ready (at once in Node; browsers must await it). */
export declare function ready(): Promise<void>;
