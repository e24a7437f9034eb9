// SPDX-License-Identifier: Apache-2.0
// Browser (and Deno, workers) entry: `await ready()` once, then use Robots
// synchronously. ready(source) takes the .wasm's URL, bytes or a Response
// when it is not served beside this file (../dist/robotsc.wasm).
import { instantiate, isReady } from './core.js';

let pending = null;

export function ready(source) {
  if (isReady()) return Promise.resolve();
  if (!pending) {
    let src = source ?? new URL('../dist/robotsc.wasm', import.meta.url);
    if (typeof src === 'string' || src instanceof URL) src = fetch(src);
    pending = instantiate(src).catch((e) => { pending = null; throw e; });
  }
  return pending;
}

export { Robots, RobotsError, STATUS, agentToken, isValidAgent, lint, version, memorySize } from './core.js';
