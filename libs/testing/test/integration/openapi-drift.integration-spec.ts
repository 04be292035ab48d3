import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { SERVICE_NAMES, ServiceName } from '@kyc/contracts';

import { freePort, repoRoot, ServiceProcess, startProcess } from '../../src';

/**
 * The published contract never drifts: every service, started as the stack starts it (its own
 * process, from dist/), serves at /docs/openapi.json exactly the committed openapi/<service>.json
 * that `npm run openapi` writes and the typed client (libs/client) is generated from.
 */
describe('the committed OpenAPI documents', () => {
  const running: ServiceProcess[] = [];
  const served = new Map<ServiceName, unknown>();

  beforeAll(async () => {
    // One at a time: seven services booting at once on two cores only makes each slower. Each
    // port is taken just before its service starts, so another process cannot take it meanwhile.
    for (const name of SERVICE_NAMES) {
      const service = await startProcess(name, await freePort(), { KAFKA_CONSUMER_GROUP: `${name}-openapi-drift` });
      running.push(service);
      const res = await fetch(`${service.url}/docs/openapi.json`);
      served.set(name, await res.json());
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
  });

  it.each(SERVICE_NAMES)('%s serves exactly its committed openapi/<service>.json', (name) => {
    const file = path.join(repoRoot, 'openapi', `${name}.json`);
    if (!existsSync(file))
      throw new Error(`openapi/${name}.json is missing: run \`npm run openapi\` and commit openapi/ and libs/client/`);
    const committed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    try {
      expect(served.get(name)).toEqual(committed);
    } catch (err) {
      throw new Error(
        `${name}'s /docs/openapi.json differs from openapi/${name}.json: run \`npm run openapi\` and commit ` +
          `openapi/ and libs/client/ (routes, DTOs or response docs changed).\n${(err as Error).message}`,
      );
    }
  });
});
