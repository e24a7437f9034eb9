// SPDX-License-Identifier: Apache-2.0
// `import { useRobotsc } from 'robotsc/crawlee'` (Node): Crawlee's
// respectRobotsTxtFile with robotsc's verdicts (src/crawlee-core.js).
import * as core from './index.js';
import { crawleeFace } from './crawlee-core.js';

export const useRobotsc = crawleeFace(core);
