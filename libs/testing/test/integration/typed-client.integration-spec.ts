import { createKycClient } from '@kyc/client';

import { createTenant, freePorts, ServiceProcess, startProcess, TestTenant } from '../../src';

/**
 * The typed client (libs/client, generated from openapi/*.json) against the real services, run as
 * the stack runs them (their own processes, from dist/): what an adopter writes with it compiles
 * against the published contract and works end to end.
 */
describe('the typed client (libs/client) end to end', () => {
  let account: ServiceProcess;
  let checks: ServiceProcess;
  let tenant: TestTenant;

  beforeAll(async () => {
    const [accountPort, checksPort] = await freePorts(2);
    [account, checks] = await Promise.all([
      startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: 'account-typed-client-spec' }),
      startProcess('checks', checksPort, { KAFKA_CONSUMER_GROUP: 'checks-typed-client-spec' }),
    ]);
    tenant = await createTenant(account.url, [checks.url, account.url]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
  });

  it('creates a check, reads it back and lists it', async () => {
    const client = createKycClient('checks', { baseUrl: checks.url, apiKey: tenant.apiKey });
    const created = await client.POST('/v1/checks', {
      body: { country: 'CO', type: 'person', user_authorized: true, national_id: '79111222', first_name: 'Ana' },
    });
    expect(created.response.status).toBe(201);
    const checkId = created.data!.check.check_id;
    expect(created.data!.self).toBe(`/v1/checks/${checkId}`);

    const read = await client.GET('/v1/checks/{check_id}', { params: { path: { check_id: checkId } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.check).toMatchObject({ check_id: checkId, country: 'CO', type: 'person' });

    const list = await client.GET('/v1/checks', {});
    expect(list.data!.checks.map((c) => c.check_id)).toContain(checkId);
  });

  it('answers refusals in the error envelope, typed', async () => {
    const client = createKycClient('checks', { baseUrl: checks.url, apiKey: tenant.apiKey });
    const refused = await client.POST('/v1/checks', {
      body: { country: 'XX', type: 'person', user_authorized: true, national_id: '1' } as never,
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 400, error_code: 'validation_failed' });
    expect(refused.error!.fields!.map((f) => f.field)).toContain('country');

    const missing = await client.GET('/v1/checks/{check_id}', { params: { path: { check_id: 'CHK-none' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 404 });
  });

  it('reads the account service with the same key (whoami, users)', async () => {
    const client = createKycClient('account', { baseUrl: account.url, apiKey: tenant.apiKey });
    const me = await client.GET('/v1/auth/whoami', {});
    expect(me.data).toMatchObject({ tenant_id: tenant.tenantId, role: 'full_access' });
    const users = await client.GET('/v1/account/users', {});
    expect(users.data!.users.map((u) => u.username)).toContain(`admin@${tenant.tenantId}.test`);
  });
});
