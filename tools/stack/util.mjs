// Helpers of the stack modules: the launchers' (libs/devstack) and loading the build.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { repoRoot, StackError } from '../../libs/devstack/src/util.mjs';

export {
  assertPortFree,
  freePort,
  freePorts,
  repoRoot,
  StackError,
  stopChild,
  tail,
  waitFor,
} from '../../libs/devstack/src/util.mjs';

const require = createRequire(import.meta.url);

/** A module of the build (dist/), with a clear error when the build is missing. */
export function dist(module) {
  const file = path.join(repoRoot, 'dist', module);
  if (!existsSync(file))
    throw new StackError(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first`);
  return require(file);
}
