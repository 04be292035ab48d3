// A throwaway stack for the API proof (tools/api/prove.mjs): the whole platform from tools/stack's
// public entry point (startStack), in its own directory and on free ports, so it never clashes with a
// developer's `npm start`. Its demo tenant and full-access key are the proof's test tenant.
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { serviceNames, startStack } from '../stack/stack.mjs';
import { freePorts, repoRoot } from '../stack/util.mjs';

export async function startProofStack({ log }) {
  const stackDir = path.join(repoRoot, '.stack', 'api-proof');
  await rm(stackDir, { recursive: true, force: true });
  // Seven services migrating at once on a busy CI machine: give /health longer than a developer's start.
  process.env.STACK_HEALTH_TIMEOUT_MS ??= '240000';
  const names = serviceNames();
  const [postgres, kafka, kafkaController, smtp, sandboxMessaging, ...servicePorts] = await freePorts(5 + names.length);
  const stack = await startStack({
    stackDir,
    cacheDir: path.join(repoRoot, '.stack'),
    ports: {
      postgres,
      kafka,
      kafkaController,
      smtp,
      sandboxMessaging,
      services: Object.fromEntries(names.map((n, i) => [n, servicePorts[i]])),
    },
    log,
  });
  return { ...stack, stackDir };
}
