// Runs in every integration suite (jest.integration.config.js setupFilesAfterEnv): when the suite's
// app publishes a contract (apps/<app>/test/contract/contract.ts exporting `contract`, a
// PublishedContract), every response its ApiClients receive on a route the published document
// describes is validated against the documented schema for that route and status, and the suite
// fails in afterAll listing each violation. New suites and newly answered routes are covered
// without being listed anywhere.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ApiClient } from './api-client';
import { ContractRecorder, type PublishedContract } from './openapi-contract';

const testPath = expect.getState().testPath ?? '';
const app = /[/\\]apps[/\\]([^/\\]+)[/\\]/.exec(testPath)?.[1];
const contractFile = app && path.resolve(__dirname, '../../../apps', app, 'test/contract/contract.ts');

if (contractFile && existsSync(contractFile)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { contract } = require(contractFile) as { contract: PublishedContract };
  const recorder = new ContractRecorder(contract).start((observer) => ApiClient.observe(observer));
  afterAll(() => {
    const { violations } = recorder.finish();
    if (violations.length) {
      throw new Error(`responses that do not validate against the published OpenAPI:\n${violations.join('\n')}`);
    }
  });
}
