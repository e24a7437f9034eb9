// SPDX-License-Identifier: Apache-2.0
// Types of robotsc/crawlee.

export interface UseRobotscOptions {
  /** Fetch function for /robots.txt (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Compiled robots.txt files kept, one per origin (default 1000). */
  maxOrigins?: number;
}

/**
 * Makes a Crawlee crawler created with `respectRobotsTxtFile: { userAgent: 'YourBot' }`
 * decide with robotsc (Google's verdicts). Returns the crawler.
 */
export declare function useRobotsc<T extends object>(crawler: T, options?: UseRobotscOptions): T;
