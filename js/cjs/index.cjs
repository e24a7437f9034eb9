// SPDX-License-Identifier: Apache-2.0
// require('robotsc') in Node: the CommonJS copy of the binding
// (dist/cjs/core.cjs), instantiated synchronously from the packaged .wasm.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const core = require('../dist/cjs/core.cjs');

core.instantiateSync(readFileSync(join(__dirname, '..', 'dist', 'robotsc.wasm')));

module.exports = {
  Robots: core.Robots,
  RobotsError: core.RobotsError,
  STATUS: core.STATUS,
  agentToken: core.agentToken,
  isValidAgent: core.isValidAgent,
  lint: core.lint,
  version: core.version,
  memorySize: core.memorySize,
  ready: async () => {},
};
