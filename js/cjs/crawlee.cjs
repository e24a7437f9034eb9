// SPDX-License-Identifier: Apache-2.0
// `const { useRobotsc } = require('robotsc/crawlee')`: src/crawlee-core.js.
'use strict';
const core = require('./index.cjs');
const { crawleeFace } = require('../dist/cjs/crawlee-core.cjs');

module.exports = { useRobotsc: crawleeFace(core) };
