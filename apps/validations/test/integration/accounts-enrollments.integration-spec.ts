import { closeDb, db } from '@kyc/testing';

import {
  expectError,
  jpegLike,
  keyIssuedAt,
  startValidationsStack,
  upload,
  ValidationsStack,
} from './validations-helpers';

describe('validations: accounts and enrollments over HTTP', () => {
  let s: ValidationsStack;

  beforeAll(async () => {
    s = await startValidationsStack();
  });

  afterAll(async () => {
    await s?.close();
    await closeDb();
  });

  const accountRows = async () =>
    Number(
      (
        await db().query('SELECT count(*) FROM validations.validator_accounts WHERE tenant_id = $1', [
          s.tenant.tenantId,
        ])
      ).rows[0].count,
    );
  const enrollmentRows = async () =>
    Number(
      (await db().query('SELECT count(*) FROM validations.enrollments WHERE tenant_id = $1', [s.tenant.tenantId]))
        .rows[0].count,
    );

  describe('accounts', () => {
    it('creates an account with every input and reads it back', async () => {
      const res = await s.api.post('/v1/accounts', {
        account_id: 'user_1.a-b',
        email: 'ana@example.com',
        first_name: 'Ana',
        last_name: 'Perez',
        phone_number: '+573001234567',
        country: 'co',
        document_number: '1020304050',
        document_type: 'national-id',
        document_issue_date: '2015-06-30',
        facebook_user: 'ana.perez',
        twitter_user: 'ana_perez',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ account_id: 'user_1.a-b', country: 'CO', document_issue_date: '2015-06-30' });
      const got = await s.api.get('/v1/accounts/user_1.a-b');
      expect(got.status).toBe(200);
      expect(got.body.email).toBe('ana@example.com');
    });

    it('draws a random alphanumeric id when none is given', async () => {
      const res = await s.api.post('/v1/accounts', { first_name: 'Random' });
      expect(res.status).toBe(201);
      expect(res.body.account_id).toMatch(/^[A-Za-z0-9]{24}$/);
    });

    it('refuses a request without a body with 400 naming the body, and creates nothing', async () => {
      const before = await accountRows();
      expectError(await s.api.post('/v1/accounts'), 400, 'validation_failed', 'body');
      expect(await accountRows()).toBe(before);
    });

    it('refuses an id taken by another user with 409', async () => {
      await s.api.post('/v1/accounts', { account_id: 'taken' });
      expectError(await s.api.post('/v1/accounts', { account_id: 'taken' }), 409, 'account_already_exists');
    });

    it.each([
      ['account_id', { account_id: 'bad id!' }],
      ['country', { country: 'XX' }],
      ['country', { country: 'COL' }],
      ['document_type', { document_type: 'driver-license' }],
      ['document_issue_date', { document_issue_date: '2015-02-30' }],
      ['document_issue_date', { document_issue_date: '30/06/2015' }],
      ['email', { email: 'not-an-email' }],
      ['phone_number', { phone_number: '12ab' }],
      ['twitter_user', { twitter_user: 'has space' }],
    ])('refuses a bad %s with 400 and stores nothing', async (field, body) => {
      const before = await accountRows();
      expectError(await s.api.post('/v1/accounts', body), 400, 'validation_failed', field);
      expect(await accountRows()).toBe(before);
    });

    it('lists accounts newest first, paged with start_key', async () => {
      for (let i = 0; i < 22; i++) await s.api.post('/v1/accounts', { account_id: `page-${i}` });
      const first = await s.api.get('/v1/accounts');
      expect(first.status).toBe(200);
      expect(first.body.accounts).toHaveLength(20);
      expect(first.body.next).toContain('start_key=');
      const next = await s.api.get(new URL(first.body.next).pathname + new URL(first.body.next).search);
      const ids = [...first.body.accounts, ...next.body.accounts].map((a: { account_id: string }) => a.account_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain('page-0');
    });

    it('answers 404 for an account of nobody', async () => {
      expectError(await s.api.get('/v1/accounts/nobody'), 404, 'account_not_found');
    });
  });

  describe('enrollments', () => {
    it('enrolls an e-mail, pending until validated, creating the account when omitted', async () => {
      const res = await s.api.post('/v1/enrollments', {
        type: 'email-verification',
        user_authorized: 'true',
        email: 'x@example.com',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'email-verification', status: 'pending', email: 'x@example.com' });
      expect((await s.api.get(`/v1/accounts/${res.body.account_id}`)).status).toBe(200);
      const list = await s.api.get(`/v1/accounts/${res.body.account_id}/enrollments`);
      expect(list.body.enrollments.map((e: { enrollment_id: string }) => e.enrollment_id)).toEqual([
        res.body.enrollment_id,
      ]);
    });

    it('takes the account id from the query string too', async () => {
      const res = await s.api.post('/v1/enrollments?account_id=from-query', {
        type: 'email-verification',
        user_authorized: 'true',
        email: 'q@example.com',
      });
      expect(res.status).toBe(201);
      expect(res.body.account_id).toBe('from-query');
    });

    it('enrolls up to three phone numbers, one per phone type', async () => {
      const base = { type: 'phone-verification', user_authorized: 'true', account_id: 'phones', country: 'CO' };
      for (const [i, phoneType] of ['home', 'office', 'recover'].entries())
        expect(
          (await s.api.post('/v1/enrollments', { ...base, phone_number: `+57300000000${i}`, phone_type: phoneType }))
            .status,
        ).toBe(201);
      expectError(
        await s.api.post('/v1/enrollments', { ...base, phone_number: '+573000000009', phone_type: 'home' }),
        409,
        'phone_type_already_enrolled',
      );
    });

    it('takes the phone country from the account when omitted, and refuses an account country not served', async () => {
      await s.api.post('/v1/accounts', { account_id: 'mx-user', country: 'MX' });
      const ok = await s.api.post('/v1/enrollments', {
        type: 'phone-verification',
        user_authorized: 'true',
        account_id: 'mx-user',
        phone_number: '+525512345678',
        phone_type: 'home',
      });
      expect(ok.status).toBe(201);
      expect(ok.body.country).toBe('MX');
      await s.api.post('/v1/accounts', { account_id: 'de-user', country: 'DE' });
      expectError(
        await s.api.post('/v1/enrollments', {
          type: 'phone-verification',
          user_authorized: 'true',
          account_id: 'de-user',
          phone_number: '+4915112345678',
          phone_type: 'home',
        }),
        400,
        'validation_failed',
        'country',
      );
    });

    const phone = {
      type: 'phone-verification',
      user_authorized: 'true',
      country: 'CO',
      phone_number: '+573001112233',
      phone_type: 'home',
    };
    it.each([
      ['type', { ...phone, type: 'document-validation' }],
      ['user_authorized', { ...phone, user_authorized: 'false' }],
      ['user_authorized', { ...phone, user_authorized: undefined }],
      ['phone_number', { ...phone, phone_number: undefined }],
      ['phone_number', { ...phone, phone_number: 'abc' }],
      ['phone_type', { ...phone, phone_type: 'mobile' }],
      ['phone_type', { ...phone, phone_type: undefined }],
      ['country', { ...phone, country: 'DE' }],
      ['email', { type: 'email-verification', user_authorized: 'true' }],
      ['email', { type: 'email-verification', user_authorized: 'true', email: 'nope' }],
      ['confirmation', { type: 'email-verification', user_authorized: 'true', email: 'a@b.co', confirmation: 'none' }],
      ['confirmation', { type: 'face-recognition', user_authorized: 'true', confirmation: 'always' }],
      ['fraud_reason', { type: 'face-search', user_authorized: 'true', country: 'CO' }],
      ['fraud_reason', { type: 'face-search', user_authorized: 'true', country: 'CO', fraud_reason: 'dislike' }],
      ['country', { type: 'face-search', user_authorized: 'true', fraud_reason: 'fraudster' }],
      ['country', { type: 'face-search', user_authorized: 'true', fraud_reason: 'fraudster', country: 'AR' }],
      ['country', { type: 'email-verification', user_authorized: 'true', email: 'a@b.co', country: 'CO' }],
      ['account_id', { ...phone, account_id: 'no spaces' }],
    ])('refuses a bad %s with 400 and stores nothing', async (field, body) => {
      const before = await enrollmentRows();
      expectError(await s.api.post('/v1/enrollments', body), 400, 'validation_failed', field);
      expect(await enrollmentRows()).toBe(before);
    });

    it('gives a face enrollment a signed upload link, and deletes it with its media', async () => {
      const res = await s.api.post('/v1/enrollments', {
        type: 'face-recognition',
        user_authorized: 'true',
        account_id: 'face-del',
      });
      expect(res.status).toBe(201);
      expect(res.body.file_upload_link).toMatch(/\/v1\/uploads\/MED[0-9a-f]{32}\?expires=\d+&signature=/);
      expect((await upload(res.body.file_upload_link, jpegLike())).status).toBe(200);
      const media = () =>
        db()
          .query('SELECT count(*) FROM validations.media WHERE owner_id = $1', [res.body.enrollment_id])
          .then((r) => Number(r.rows[0].count));
      expect(await media()).toBe(1);
      const del = await s.api.delete(`/v1/enrollments/${res.body.enrollment_id}`);
      expect(del.status).toBe(200);
      expectError(await s.api.get(`/v1/enrollments/${res.body.enrollment_id}`), 404, 'enrollment_not_found');
      expect(await media()).toBe(0);
    });

    describe('confirmation=none', () => {
      const body = { type: 'face-recognition', user_authorized: 'true', confirmation: 'none' };

      it('is refused for a tenant without the authorization', async () => {
        const before = await enrollmentRows();
        expectError(await s.api.post('/v1/enrollments', body), 403, 'confirmation_none_not_authorized', 'confirmation');
        expect(await enrollmentRows()).toBe(before);
      });

      it('applies only to keys created after the authorization', async () => {
        const oldKey = keyIssuedAt(s.tenant, Math.floor(Date.now() / 1000) - 120);
        const auth = await s.operator.put(`/v1/admin/tenants/${s.tenant.tenantId}/validation-features`, {
          confirmation_none: 'true',
        });
        expect(auth.status).toBe(200);
        expect(auth.body.confirmation_none).toBe(true);
        expectError(await s.api.withKey(oldKey).post('/v1/enrollments', body), 403, 'confirmation_none_not_authorized');
        const newKey = keyIssuedAt(s.tenant, Math.floor(Date.now() / 1000) + 1);
        const ok = await s.api.withKey(newKey).post('/v1/enrollments', body);
        expect(ok.status).toBe(201);
        expect(ok.body).toMatchObject({ confirmation: 'none', status: 'pending' });
      });

      it('is an operator endpoint: a tenant key cannot authorize itself', async () => {
        expectError(
          await s.api.put(`/v1/admin/tenants/${s.tenant.tenantId}/validation-features`, { confirmation_none: 'true' }),
          403,
          'forbidden',
        );
      });
    });
  });
});
