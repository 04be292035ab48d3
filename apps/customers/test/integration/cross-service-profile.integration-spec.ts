import { randomUUID } from 'node:crypto';

import { ApiClient, closeDb, createTenant, ServiceProcess, startService, TestTenant } from '@kyc/testing';

import { startAccount, startChecks, startCustomers, waitFor } from './support/customers-helpers';

/**
 * The real services, no hand-made events: a check created through the checks API and a document
 * validation created through the validations API (its account carries the same document number;
 * it times out, which finishes it) fold into one profile with two transactions.
 */
describe('a check and a validation of the same person, through the real services', () => {
  let account: ServiceProcess;
  let checks: ServiceProcess;
  let validations: Awaited<ReturnType<typeof startService>>;
  let customers: Awaited<ReturnType<typeof startCustomers>>;
  let tenant: TestTenant;

  beforeAll(async () => {
    [account, checks, validations, customers] = await Promise.all([
      startAccount(),
      startChecks(),
      startService('validations', {
        VALIDATIONS_SECRET_KEY: 'integration-test-secret-key',
        KAFKA_CONSUMER_GROUP: `validations-${randomUUID().slice(0, 8)}`,
        JOBS_POLL_MS: '100',
      }),
      startCustomers(),
    ]);
    tenant = await createTenant(account.url, [customers.url, checks.url, validations.url]);
  }, 300_000);

  afterAll(async () => {
    await customers?.close();
    await validations?.close();
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });

  it('makes one profile with two transactions (check and validation) for the same document number', async () => {
    const doc = String(7_000_000_000 + Math.floor(Math.random() * 999_999_999));
    const api = new ApiClient(customers.url, tenant.apiKey);
    const check = await new ApiClient(checks.url, tenant.apiKey).post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      force_creation: 'true',
      national_id: doc,
      first_name: 'Lucia',
      last_name: 'Gomez',
    });
    expect(check.status).toBe(201);

    const validationsApi = new ApiClient(validations.url, tenant.apiKey);
    expect(
      (
        await validationsApi.post('/v1/accounts', {
          account_id: 'lucia',
          first_name: 'Lucia',
          last_name: 'Gomez',
          country: 'CO',
          document_type: 'national-id',
          document_number: doc,
          email: 'lucia@example.com',
        })
      ).status,
    ).toBe(201);
    const validation = await validationsApi.post('/v1/validations', {
      type: 'document-validation',
      user_authorized: 'true',
      account_id: 'lucia',
      country: 'CO',
      document_type: 'national-id',
      timeout: '1',
    });
    expect(validation.status).toBe(201);
    const validationId = validation.body.validation_id;

    const profile = await waitFor(async () => {
      const found = (await api.get(`/v1/customers?basic_info=true&search=${doc}&search_field=document_id`)).body
        .customers as { id: string }[];
      expect(found).toHaveLength(1);
      const trx = (await api.get(`/v1/customers/${found[0].id}/transactions`)).body.transactions as {
        product: string;
        source_id: string;
        status: string;
      }[];
      expect(trx.map((t) => t.product).sort()).toEqual(['check', 'validation']);
      return { id: found[0].id, trx };
    }, 90_000);
    expect(profile.trx.find((t) => t.product === 'check')?.source_id).toBe(check.body.check.check_id);
    expect(profile.trx.find((t) => t.product === 'validation')).toMatchObject({
      source_id: validationId,
      status: 'failure',
    });
    const customer = (await api.get(`/v1/customers/${profile.id}`)).body.customer;
    expect(customer.basic_info).toMatchObject({ document_number: doc, email: 'lucia@example.com' });
  }, 200_000);
});
