import {
  ApiClient,
  closeDb,
  createTenant,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { checksService } from '../../src/app.module';

const person = { country: 'CO', type: 'person', user_authorized: 'true', first_name: 'Ana', last_name: 'Perez' };
let nationalId = 1_000_000;
/** A number not used before in this run (national ids, plates, tax ids). */
export const nextNumber = () => nationalId++;
export const nextPerson = () => ({ ...person, national_id: String(nationalId++) });

/** A Brazilian person: the national_id is an 11-digit CPF (its 9th digit gives the region searched). */
export const nextBrPerson = () => ({
  ...person,
  country: 'BR',
  national_id: `5${String(nationalId++).padStart(10, '0')}`,
});
export let checks: RunningService;

export let account: Awaited<ReturnType<typeof startInProcess>>;

export let identity: RunningService;

export let tenantA: TestTenant;

export let tenantB: TestTenant;

export let api: ApiClient;

/** Registers the suite's setup and teardown (the bindings above are set in beforeAll). */
export function useChecksApi(): void {
  beforeAll(async () => {
    [account, checks, identity] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-checks-api-spec' }),
      startInProcess('checks', checksService, { CHECKS_DEDUP_WINDOW_SECONDS: '600' }),
      startService('identity'),
    ]);
    [tenantA, tenantB] = await Promise.all([
      createTenant(account.url, [checks.url, identity.url]),
      createTenant(account.url, [checks.url]),
    ]);
    api = new ApiClient(checks.url, tenantA.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close(), identity?.close()]);
    await closeDb();
  });
}
