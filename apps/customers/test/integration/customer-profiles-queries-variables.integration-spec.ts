import { checkFinishedEvent, checkRecord, publish, validationFinishedEvent } from './support/customers-helpers';
import { api, nextDocument, producer, profileWith, tenant, useProfilesSuite } from './support/profiles-fixture';

describe('customer profiles (customers): customer queries and decision variables', () => {
  useProfilesSuite();

  describe('customer queries (POST /v1/customers/query)', () => {
    it('selects the customers a JSON-Logic rule matches, pushed down to SQL', async () => {
      const doc = nextDocument();
      await publish(
        producer,
        checkFinishedEvent(checkRecord(tenant.tenantId, { score: 0.123, inputs: { national_id: doc } })),
      );
      const profile = await profileWith(doc, 1);
      const res = await api.postJson('/v1/customers/query', {
        query: { and: [{ '==': [{ var: 'latest_check_score' }, 0.123] }, { '==': [{ var: 'document_number' }, doc] }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.customers.map((c: any) => c.customer_id)).toEqual([profile.id]);
    });

    it.each([
      [{}, 'query'],
      [{ query: 5 }, 'query'],
      [{ query: '5' }, 'query'],
      [{ query: [{ '==': [1, 1] }] }, 'query'],
      [{ query: null }, 'query'],
      [{ query: { '==': [{ var: 'salary' }, 1] } }, 'query.==[0].var[0]'],
      [{ query: { frobnicate: [1] } }, 'query.frobnicate'],
      [{ query: { '+': [{ var: 'checks_count' }, 1] } }, 'query.+'],
      [{ query: { '==': [1, 1] }, limit: 101 }, 'limit'],
    ])('refuses %j (400 naming %s)', async (body, field) => {
      const res = await api.postJson('/v1/customers/query', body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.fields)).toContain(field.split('[')[0]);
    });
  });

  describe('decision variables', () => {
    it('lists the catalog with every filter (multi-value filters repeated) and pages it', async () => {
      const all = (await api.get('/v1/customers/decision-variables/available?limit=100')).body.decision_variables;
      expect(all.length).toBeGreaterThan(10);
      expect(all[0]).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          category: expect.any(String),
          level: expect.any(Number),
          product: expect.any(String),
          data_type: expect.any(String),
          active: expect.any(Boolean),
        }),
      );
      const q = async (query: string) =>
        (await api.get(`/v1/customers/decision-variables/available?limit=100&${query}`)).body
          .decision_variables as any[];
      expect((await q('product=check')).every((v) => v.product === 'check')).toBe(true);
      expect((await q('product=check&product=process')).length).toBe(all.length);
      expect(
        (await q('data_type=boolean&data_type=date')).every((v) => ['boolean', 'date'].includes(v.data_type)),
      ).toBe(true);
      expect((await q('active=false')).map((v) => v.active)).toEqual([false]);
      expect((await q('level=1')).every((v) => v.level === 1)).toBe(true);
      expect((await q('category=risk&category=identity')).every((v) => ['risk', 'identity'].includes(v.category))).toBe(
        true,
      );
      expect((await q('name=checks_count')).map((v) => v.name)).toEqual(['checks_count']);
      expect((await q('id=DV01&id=DV02')).map((v) => v.id)).toEqual(['DV01', 'DV02']);
      expect((await q('search=score')).every((v) => `${v.name} ${v.description}`.toLowerCase().includes('score'))).toBe(
        true,
      );
      const page = await api.get('/v1/customers/decision-variables/available?limit=5');
      const next = await api.get(page.body.next.replace(/^https?:\/\/[^/]+/, ''));
      expect(next.body.decision_variables[0].id > page.body.decision_variables[4].id).toBe(true);
    });

    it('gives each customer the values derived from their transactions in the date range', async () => {
      const doc = nextDocument();
      const now = Date.now();
      await publish(
        producer,
        checkFinishedEvent(
          checkRecord(tenant.tenantId, {
            score: 0.9,
            inputs: { national_id: doc },
            update_date: new Date(now - 40 * 86_400_000).toISOString(),
          }),
          new Date(now - 40 * 86_400_000),
        ),
        checkFinishedEvent(checkRecord(tenant.tenantId, { score: 0.3, inputs: { national_id: doc } }), new Date(now)),
        validationFinishedEvent(
          tenant.tenantId,
          { document_number: doc, country: 'CO', validation_status: 'failure' },
          new Date(now),
        ),
      );
      const profile = await profileWith(doc, 3);
      const values = async (query: string) =>
        (await api.get(`/v1/customers/decision-variables?customer_id=${profile.id}&${query}`)).body;
      const recent = await values(
        'names=latest_check_score&names=checks_count&names=failed_validations_count&names=has_high_risk_check',
      );
      expect(recent.decision_variables).toEqual([
        {
          customer_id: profile.id,
          values: { latest_check_score: 0.3, checks_count: 1, failed_validations_count: 1, has_high_risk_check: true },
        },
      ]);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const old = await values(
        `start_date=${day(now - 45 * 86_400_000)}&end_date=${day(now - 35 * 86_400_000)}&categories=risk`,
      );
      expect(old.decision_variables[0].values).toMatchObject({
        latest_check_score: 0.9,
        failed_validations_count: 0,
        has_high_risk_check: false,
      });
      expect(Object.keys(old.decision_variables[0].values)).not.toContain('checks_count');
    });

    it.each([
      ['start_date=2026-13-01', 'start_date'],
      ['start_date=2026-02-30', 'start_date'],
      ['end_date=yesterday', 'end_date'],
      ['start_date=2026-02-01&end_date=2026-01-01', 'end_date'],
      ['end_date=0000-01-30', 'end_date'],
      ['start_date=0001-01-01', 'start_date'],
      ['categories=weather', 'categories'],
    ])('refuses values with %s (400 naming %s)', async (query, field) => {
      const res = await api.get(`/v1/customers/decision-variables?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });

    it.each([
      ['active=yes', 'active'],
      ['product=validation', 'product'],
      ['data_type=json', 'data_type'],
      ['level=high', 'level'],
      ['category=weather', 'category'],
    ])('refuses the catalog with %s (400 naming %s)', async (query, field) => {
      const res = await api.get(`/v1/customers/decision-variables/available?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field)).toContain(field);
    });
  });
});
