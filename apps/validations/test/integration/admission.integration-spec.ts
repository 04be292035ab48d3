import { ApiClient, closeDb, db, eventually, startService } from '@kyc/testing';

import { expectError, startValidationsStack, ValidationsStack } from './validations-helpers';

/**
 * Rules of a document validation that depend on the tenant: `custom_type` must name a custom type
 * created in the checks service (known here from its `checks.custom-type.*` events), and the
 * "on request" countries (BR, CR) and document type (ppt) need an operator's authorization.
 */
describe('validations: custom types from the checks service, "on request" countries and document types', () => {
  let s: ValidationsStack;
  let checks: Awaited<ReturnType<typeof startService>>;
  let checksApi: ApiClient;

  beforeAll(async () => {
    s = await startValidationsStack();
    checks = await startService('checks', { CHECKS_WORKER_ENABLED: 'false' });
    checksApi = new ApiClient(checks.url, s.tenant.apiKey);
    await eventually(async () => {
      const r = await checksApi.get('/v1/auth/whoami');
      if (r.status !== 200) throw new Error(`key not accepted yet by checks: ${r.status}`);
    });
  });

  afterAll(async () => {
    await checks?.close();
    await s?.close();
    await closeDb();
  });

  const JSON_BODY = { 'content-type': 'application/json' };
  const doc = { type: 'document-validation', user_authorized: 'true', country: 'CO', document_type: 'national-id' };
  const validationRows = async () =>
    Number(
      (await db().query('SELECT count(*) FROM validations.validations WHERE tenant_id = $1', [s.tenant.tenantId]))
        .rows[0].count,
    );

  describe('custom_type', () => {
    it('is refused (400 custom_type_not_found, nothing stored) when the checks service has no such type', async () => {
      const before = await validationRows();
      const res = await s.api.post('/v1/validations', { ...doc, custom_type: 'never-created' });
      expectError(res, 400, 'custom_type_not_found', 'custom_type');
      expect(res.body.message).toContain('never-created');
      expect(await validationRows()).toBe(before);
    });

    it('is accepted once the type is created through the checks API, and refused again after its deletion', async () => {
      const created = await checksApi.post('/v1/config', {
        country: 'CO',
        type: 'onboarding-links',
        dataset_criminal_record: '0.5',
        dataset_legal_background: '0.5',
      });
      expect(created.status).toBe(201);
      const res = await eventually(
        async () => {
          const r = await s.api.post('/v1/validations', { ...doc, custom_type: 'onboarding-links' });
          if (r.status !== 201) throw new Error(`custom type not known yet: ${r.status} ${JSON.stringify(r.body)}`);
          return r;
        },
        { timeoutMs: 30_000 },
      );
      expect(res.body).toMatchObject({ custom_type: 'onboarding-links', validation_status: 'pending' });
      // The name is matched without regard to case (the checks API treats type names so for built-in types).
      expect((await s.api.post('/v1/validations', { ...doc, custom_type: 'Onboarding-Links' })).status).toBe(201);

      // Another tenant's custom types are not this tenant's.
      expect(
        (await db().query('SELECT tenant_id FROM validations.custom_types WHERE type = $1', ['onboarding-links'])).rows,
      ).toEqual([{ tenant_id: s.tenant.tenantId }]);

      const removed = await checksApi.delete('/v1/config?country=CO&type=onboarding-links');
      expect(removed.status).toBe(200);
      await eventually(
        async () => {
          const r = await s.api.post('/v1/validations', { ...doc, custom_type: 'onboarding-links' });
          if (r.status !== 400) throw new Error(`custom type still known: ${r.status}`);
          expectError(r, 400, 'custom_type_not_found', 'custom_type');
        },
        { timeoutMs: 30_000 },
      );
    });

    it('folds each event once (a replayed event changes nothing)', async () => {
      const rows = await db().query(
        `SELECT count(*)::int AS n FROM validations.processed_messages WHERE consumer = 'validations.custom-types'`,
      );
      expect(rows.rows[0].n).toBeGreaterThanOrEqual(2);
    });
  });

  describe('"on request" countries and document types', () => {
    const features = (body: Record<string, unknown>) =>
      s.operator.request('PUT', `/v1/admin/tenants/${s.tenant.tenantId}/validation-features`, body, JSON_BODY);

    it.each([
      ['country', { ...doc, country: 'BR', document_type: 'cnh' }, 'BR'],
      ['country', { ...doc, country: 'CR', document_type: 'national-id' }, 'CR'],
      ['document_type', { ...doc, country: 'CO', document_type: 'ppt' }, 'ppt'],
    ])(
      'refuses %s %s until the tenant is authorized (403 available_on_request, nothing stored)',
      async (field, body, value) => {
        const before = await validationRows();
        const res = await s.api.post('/v1/validations', body);
        expectError(res, 403, 'available_on_request', field);
        expect(res.body.message).toContain(String(value));
        expect(res.body.message).toContain('on request');
        expect(await validationRows()).toBe(before);
      },
    );

    it('accepts them once an operator enables them for the tenant, one by one', async () => {
      const enabled = await features({ on_request_countries: ['BR'] });
      expect(enabled.status).toBe(200);
      expect(enabled.body).toMatchObject({ on_request_countries: ['BR'], on_request_document_types: [] });
      expect((await s.api.post('/v1/validations', { ...doc, country: 'BR', document_type: 'cnh' })).status).toBe(201);
      expectError(
        await s.api.post('/v1/validations', { ...doc, country: 'CR', document_type: 'national-id' }),
        403,
        'available_on_request',
        'country',
      );
      expectError(
        await s.api.post('/v1/validations', { ...doc, document_type: 'ppt' }),
        403,
        'available_on_request',
        'document_type',
      );

      expect((await features({ on_request_countries: ['BR', 'CR'], on_request_document_types: ['ppt'] })).status).toBe(
        200,
      );
      expect(
        (await s.api.post('/v1/validations', { ...doc, country: 'CR', document_type: 'national-id' })).status,
      ).toBe(201);
      expect((await s.api.post('/v1/validations', { ...doc, document_type: 'ppt' })).status).toBe(201);

      // Taking the authorization back refuses them again.
      expect((await features({ on_request_countries: [], on_request_document_types: [] })).status).toBe(200);
      expectError(
        await s.api.post('/v1/validations', { ...doc, country: 'BR', document_type: 'cnh' }),
        403,
        'available_on_request',
        'country',
      );
    });

    it.each([
      ['on_request_countries', { on_request_countries: ['AR'] }],
      ['on_request_countries', { on_request_countries: 'BR' }],
      ['on_request_document_types', { on_request_document_types: ['passport'] }],
    ])('the operator endpoint refuses a bad %s', async (field, body) => {
      expectError(await features(body), 400, undefined, field);
    });

    it('is an operator endpoint: a tenant key cannot enable them for itself', async () => {
      expectError(
        await s.api.request(
          'PUT',
          `/v1/admin/tenants/${s.tenant.tenantId}/validation-features`,
          { on_request_countries: ['BR'] },
          JSON_BODY,
        ),
        403,
        'forbidden',
      );
    });
  });
});
