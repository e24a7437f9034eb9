// SPDX-License-Identifier: Apache-2.0
// `import robotsParser from 'robotsc/robots-parser'` in Node: ready at import.
import * as core from './index.js';
import { face } from './face.js';

const robotsParser = face(core);
export default robotsParser;
export { robotsParser };
export const ready = core.ready;
