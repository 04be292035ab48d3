// Where an engine worker's script is: the platform's workerScript over the engines folder (built .js, or the
// engines' TypeScript sources compiled once into node_modules/.cache/validations-engines/).

import path from 'node:path';

import { workerScript as platformWorkerScript } from '@kyc/platform';

const ENGINES_DIR = path.resolve(__dirname, '..');

/** The script of a worker given by its path relative to the engines folder, without extension (e.g. 'face/face.worker'). */
export function workerScript(relative: string): Promise<string> {
  return platformWorkerScript(ENGINES_DIR, relative, 'validations-engines');
}
