// SPDX-License-Identifier: Apache-2.0
// `const robotsParser = require('robotsc/robots-parser')`: robots-parser's
// factory, synchronous, with Google's verdicts (src/face.js).
'use strict';
const core = require('./index.cjs');
const { face } = require('../dist/cjs/face.cjs');

const robotsParser = face(core);
module.exports = robotsParser;
module.exports.default = robotsParser;
module.exports.robotsParser = robotsParser;
module.exports.ready = core.ready;
