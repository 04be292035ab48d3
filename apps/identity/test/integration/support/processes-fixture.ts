import { randomUUID } from 'node:crypto';

import { JobQueueService, ManualClock } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  CollectedTopic,
  collectTopic,
  createTenant,
  freePort,
  startInProcess,
  startProcess,
  TestTenant,
} from '@kyc/testing';

import { identityService } from '../../../src/app.module';
import { processOf, webKeyFor } from './process-steps';

export const formStep = {
  type: 'form',
  fields: [
    { name: 'first_name', label: 'First name' },
    { name: 'last_name', label: 'Last name' },
    { name: 'nickname', label: 'Nickname', required: false },
  ],
};
export const demoFlow = {
  name: 'Onboarding',
  redirect_url: 'https://example.test/done',
  timeout_seconds: 600,
  steps: [formStep, { type: 'email', validator_settings: { otp_length: 6 } }],
};

/** Expects the error envelope with a status (and error_code / offending field when given). */
export function expectError(res: { status: number; body: any }, status: number, errorCode?: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code: status });
  if (errorCode) expect(res.body.error_code).toBe(errorCode);
  if (field) expect((res.body.fields ?? []).map((f: { field: string }) => f.field)).toContain(field);
}

export const clock = new ManualClock(new Date());
export let account: Awaited<ReturnType<typeof startProcess>>;
export let identity: Awaited<ReturnType<typeof startInProcess>>;
export let tenant: TestTenant;
export let api: ApiClient;
export let flowId: string;
export let created: CollectedTopic;
export let finished: CollectedTopic;

export const webKey = (extra: Record<string, string> = {}) => webKeyFor(api, flowId, extra);

export const newProcess = (extra: Record<string, string> = {}) => processOf(api, flowId, extra);

export const drain = () => identity.app.get(JobQueueService).drain();

/**
 * Registers a processes suite's setup and teardown: account (a process) and identity (in-process, on
 * the ManualClock above), a tenant, the process topics collected, and the demo flow.
 */
export function useProcessesSuite(): void {
  beforeAll(async () => {
    [account, identity] = await Promise.all([
      freePort().then((port) =>
        startProcess('account', port, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
      ),
      startInProcess('identity', identityService, { JOBS_POLL_MS: '100' }, { clock }),
    ]);
    tenant = await createTenant(account.url, [identity.url]);
    api = new ApiClient(identity.url, tenant.apiKey);
    [created, finished] = await Promise.all([
      collectTopic('identity.process.created'),
      collectTopic('identity.process.finished'),
    ]);
    const flow = await api.postJson('/v1/flows', demoFlow);
    expect(flow.status).toBe(201);
    flowId = flow.body.flow_id;
  });

  afterAll(async () => {
    await Promise.all([created?.stop(), finished?.stop()]);
    await Promise.all([identity?.close(), account?.close()]);
    await closeDb();
  });
}
