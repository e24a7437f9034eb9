// SPDX-License-Identifier: Apache-2.0
// `import robotsParser, { ready } from 'robotsc/robots-parser'` in browsers:
// `await ready()` once before the first call.
import * as core from './browser.js';
import { face } from './face.js';

const robotsParser = face(core);
export default robotsParser;
export { robotsParser };
export const ready = core.ready;
