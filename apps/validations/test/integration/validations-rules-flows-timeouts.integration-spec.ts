import { email, s, useValidationsSuite, validationRows } from './validations-fixture';
import { expectError, jpegLike, otpFromMail, upload, waitFinished } from './validations-helpers';

describe('validations: create rules, identity flow settings and timeouts', () => {
  useValidationsSuite();

  describe('input rules', () => {
    const doc = { type: 'document-validation', user_authorized: 'true', country: 'CO', document_type: 'national-id' };
    const phone = {
      type: 'phone-verification',
      user_authorized: 'true',
      account_id: 'mail-user',
      phone_locale: 'es',
      verify_channel: 'sms',
      phone_type: 'home',
    };
    const face = { type: 'face-recognition', user_authorized: 'true', account_id: 'mail-user' };
    it.each([
      ['type', { ...doc, type: 'voice' }],
      ['user_authorized', { ...doc, user_authorized: 'false' }],
      ['country', { ...doc, country: undefined }],
      ['country', { ...doc, country: 'AR' }],
      ['country', { ...doc, country: 'ALL' }],
      ['document_type', { ...doc, document_type: undefined }],
      ['document_type', { ...doc, document_type: 'library-card' }],
      ['document_type', { ...email, document_type: 'passport' }],
      ['custom_input', { ...doc, custom_input: 'x'.repeat(129) }],
      ['custom_type', { ...doc, custom_type: '!bad' }],
      ['custom_type', { ...email, custom_type: 'my-type' }],
      ['timeout', { ...doc, timeout: '21601' }],
      ['timeout', { ...email, timeout: '601' }],
      ['timeout', { ...email, timeout: '0' }],
      ['timeout', { ...email, timeout: '1.5' }],
      ['account_id', { ...email, account_id: undefined }],
      ['account_id', { ...email, account_id: 'a b' }],
      ['language', { ...email, language: 'fr' }],
      ['phone_locale', { ...phone, phone_locale: undefined }],
      ['phone_locale', { ...phone, phone_locale: 'pt' }],
      ['verify_channel', { ...phone, verify_channel: undefined }],
      ['verify_channel', { ...phone, verify_channel: 'fax' }],
      ['phone_type', { ...phone, phone_type: undefined }],
      ['phone_type', { ...phone, phone_type: 'mobile' }],
      ['subvalidations', { ...face, subvalidations: 'smile' }],
      ['subvalidations', { ...email, subvalidations: 'similarity' }],
      ['threshold', { ...face, threshold: '1.5' }],
      ['threshold', { ...face, threshold: 'high' }],
      ['speech_precision', { ...face, subvalidations: ['similarity', 'speech_match'] }],
      ['speech_precision', { ...face, subvalidations: 'speech_match', speech_precision: 'perfect' }],
      ['retry_of_id', { ...face, retry_of_id: 'not-an-id' }],
      ['retry_of_id', { ...email, retry_of_id: `VLD${'0'.repeat(32)}` }],
      ['skip_unavailable_manual_review', { ...doc, skip_unavailable_manual_review: 'sometimes' }],
      ['country', { type: 'face-search', user_authorized: 'true', account_id: 'mail-user' }],
      ['country', { type: 'face-search', user_authorized: 'true', account_id: 'mail-user', country: 'AR' }],
      ['validator_settings', { ...doc, validator_settings: '[1,2]' }],
      ['validator_settings.timeout', { ...doc, validator_settings: JSON.stringify({ timeout: 99999 }) }],
      ['validator_settings.custom_name', { ...doc, validator_settings: JSON.stringify({ custom_name: 'x' }) }],
    ])('refuses a bad %s with 400 and stores nothing', async (field, body) => {
      const before = await validationRows();
      expectError(await s.api.post('/v1/validations', body), 400, 'validation_failed', field);
      expect(await validationRows()).toBe(before);
    });

    it('needs the enrollment of the account for face, e-mail and phone', async () => {
      const before = await validationRows();
      expectError(await s.api.post('/v1/validations', face), 400, 'enrollment_required');
      expectError(await s.api.post('/v1/validations', phone), 400, 'enrollment_required', 'phone_type');
      expectError(await s.api.post('/v1/validations', { ...email, account_id: 'nobody' }), 404, 'account_not_found');
      expect(await validationRows()).toBe(before);
    });

    it('refuses retry_of_id while retries are not active', async () => {
      const first = await s.api.post('/v1/validations', { ...doc, timeout: '1' });
      expect(first.status).toBe(201);
      expectError(
        await s.api.post('/v1/validations', {
          ...doc,
          account_id: first.body.account_id,
          retry_of_id: first.body.validation_id,
        }),
        400,
        'retry_not_allowed',
        'retry_of_id',
      );
    });
  });

  describe('identity flows', () => {
    it('prefer the flow validator settings over the tenant config (validator_settings)', async () => {
      await s.api.post('/v1/enrollments', {
        type: 'email-verification',
        user_authorized: 'true',
        account_id: 'flow-user',
        email: 'flow@mail.test',
      });
      await s.api.put('/v1/config', { validator: 'email-verification', timeout: '500', allowed_retries: '4' });
      const res = await s.api.postJson('/v1/validations', {
        type: 'email-verification',
        user_authorized: true,
        account_id: 'flow-user',
        validator_settings: { timeout: 120, email_subject: 'Flow subject' },
        process_id: 'IDP123',
        flow_id: 'IPF456',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        timeout: 120,
        allowed_retries: 4,
        attempts_left: 5,
        process_id: 'IDP123',
        flow_id: 'IPF456',
      });
      expect((await otpFromMail(s.smtp, 'flow@mail.test')).subject).toBe('Flow subject');
      await s.api.delete('/v1/config?validator=email-verification');
    });
  });

  describe('timeouts (durable jobs)', () => {
    it('expires an e-mail validation whose code was never sent back', async () => {
      const res = await s.api.post('/v1/validations', { ...email, timeout: '1' });
      const v = await waitFinished(s.api, res.body.validation_id, 15_000);
      expect(v).toMatchObject({
        validation_status: 'failure',
        failure_status: 'expired',
        expired_reason: 'token_not_submitted',
      });
      s.smtp.messages.length = 0;
    });

    it('expires a document validation whose images never came', async () => {
      const res = await s.api.post('/v1/validations', {
        type: 'document-validation',
        user_authorized: 'true',
        country: 'ALL',
        document_type: 'passport',
        timeout: '1',
      });
      expect(res.body.instructions).toEqual({ front_url: expect.any(String), upload_expiration: expect.any(String) });
      const v = await waitFinished(s.api, res.body.validation_id, 15_000);
      expect(v).toMatchObject({
        validation_status: 'failure',
        failure_status: 'expired',
        expired_reason: 'media_not_uploaded',
      });
      expectError(await upload(res.body.instructions.front_url, jpegLike()), 403, 'upload_link_expired');
    });
  });
  describe('client address', () => {
    it("records the connection's address, not an X-Forwarded-For the client sent (no proxy is trusted by default)", async () => {
      const res = await s.api.post('/v1/validations', email, { 'x-forwarded-for': '6.6.6.6' });
      expect(res.status).toBe(201);
      expect(res.body.ip_address).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    });
  });
});
