// SPDX-License-Identifier: Apache-2.0
// Node entry (ESM): the module is instantiated synchronously from the .wasm
// shipped in the package, so everything is usable as soon as it is imported.
import { readFileSync } from 'node:fs';
import { instantiateSync } from './core.js';

instantiateSync(readFileSync(new URL('../dist/robotsc.wasm', import.meta.url)));

// Already done in Node; kept so that code shared with browsers can await it.
export async function ready() {}

export { Robots, RobotsError, STATUS, agentToken, isValidAgent, lint, version, memorySize } from './core.js';
