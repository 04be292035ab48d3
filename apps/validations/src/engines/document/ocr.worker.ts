// tesseract.js's own worker script (what createWorker starts by default), run below normal priority like the
// engines' other threads: tesseract.js starts its thread from the service's event loop, whose normal priority
// the thread would otherwise keep, and the OCR is two thirds of a document validation's CPU.

import { yieldToRequests } from '../worker/worker-host';

yieldToRequests();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the priority is set; the package's script has no types
require('tesseract.js/src/worker-script/node/index.js');
