import { closeDb, eventually } from '@kyc/testing';
import { Browser } from 'playwright-core';

import { emailCode, FORM_STEP, launchBrowser, pageLink, PageStack, startPageStack } from './support/page-stack';
import { stepWithValidation, submitStep } from './support/process-steps';

/**
 * The page's languages and keyboard use (Chromium), and every input rule of the e-mail, phone and
 * upload steps it drives (HTTP refusals: the envelope, nothing stored).
 */
describe('identity: the end user page, its languages, keyboard use and input rules', () => {
  let s: PageStack;
  let browser: Browser;

  beforeAll(async () => {
    // Two wrong codes per person lock them out (the platform's default is 10): the lockout test below.
    [s, browser] = await Promise.all([startPageStack({ OTP_MAX_ATTEMPTS_PER_SUBJECT: '2' }), launchBrowser()]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await closeDb();
  });

  /** A started process (the page's first visit starts it) and the current step. */
  async function started(steps: unknown[]) {
    const { key, link } = await pageLink(s, steps);
    const web = s.api.withKey(key);
    const res = await fetch(link);
    expect(res.status).toBe(200);
    const page = await res.text();
    const id = /data-process="(IDP\w+)"/.exec(page)![1];
    const get = async () => (await web.get(`/v1/processes/${id}`)).body;
    return { id, web, key, link, get };
  }

  describe('languages', () => {
    it.each([
      ['es', 'Tu correo electrónico', 'Correo electrónico', 'Enviar'],
      ['en', 'Your e-mail', 'E-mail address', 'Send'],
      ['pt', 'Seu e-mail', 'Endereço de e-mail', 'Enviar'],
    ])('lang=%s shows the step in that language', async (lang, heading, label, button) => {
      const { link } = await pageLink(s, [{ type: 'email' }], lang);
      const page = await browser.newPage();
      await page.goto(link);
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(heading);
      await expect(page.getByLabel(label).getAttribute('type')).resolves.toBe('email');
      expect(await page.getByRole('button').innerText()).toBe(button);
      await page.close();
    });

    it('without lang the browser language decides (pt-BR), and Spanish is the default', async () => {
      const { link } = await pageLink(s, [{ type: 'email' }]);
      const pt = await browser.newPage({ locale: 'pt-BR' });
      await pt.goto(link);
      expect(await pt.getByRole('heading', { level: 1 }).innerText()).toBe('Seu e-mail');
      await pt.close();
      const html = await fetch(link, { headers: { 'accept-language': 'de' } }).then((r) => r.text());
      expect(html).toContain('<html lang="es">');
    });
  });

  describe('keyboard', () => {
    it('completes a form step with the keyboard alone; errors are announced and focus the field', async () => {
      const { link } = await pageLink(s, [FORM_STEP, { type: 'email' }], 'en');
      const page = await browser.newPage();
      await page.goto(link);
      // The heading has the focus on load; Tab reaches the fields in order, then the button.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('heading');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab'); // skip first name: submit with it empty first
      await page.keyboard.type('Pérez');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');
      await page.keyboard.press('Enter');
      await eventually(async () => expect(await page.locator('#errors').innerText()).toContain('First name'));
      expect(await page.locator('#errors').getAttribute('role')).toBe('alert');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-first_name');
      expect(await page.locator('#field-first_name').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-first_name-error').innerText()).toBe('This field is required.');
      await page.keyboard.type('Ana');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Your e-mail' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('heading');
      await page.close();
    });
  });

  describe('the page link', () => {
    it('refuses a link without token or with an unknown language (400 envelope)', async () => {
      const none = await fetch(`${s.identity.url}/web`);
      expect(none.status).toBe(400);
      expect((await none.json()).fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'token' })]));
      const { link } = await pageLink(s, [{ type: 'email' }]);
      const fr = await fetch(`${link}&lang=fr`);
      expect(fr.status).toBe(400);
      expect((await fr.json()).fields).toEqual([expect.objectContaining({ field: 'lang' })]);
    });

    it('answers an invalid link page (401) for a forged token and for a backend key, and starts no process', async () => {
      const before = (await s.api.get('/v1/processes')).body.processes.length;
      for (const token of ['not-a-key', s.tenant.apiKey]) {
        const res = await fetch(`${s.identity.url}/web?token=${encodeURIComponent(token)}&lang=en`);
        expect(res.status).toBe(401);
        expect(await res.text()).toContain('Invalid link');
      }
      expect((await s.api.get('/v1/processes')).body.processes.length).toBe(before);
    });

    it('serves the page so the key cannot leak: no referrer, no cache, scripts of its own origin only', async () => {
      const { link } = await pageLink(s, [{ type: 'email' }]);
      const res = await fetch(link);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    });
  });

  describe('e-mail and phone steps', () => {
    it('refuses an e-mail that is not an address; nothing is stored', async () => {
      const { id, web, get } = await started([{ type: 'email' }]);
      const step = (await get()).steps[0];
      const res = await submitStep(web, id, step, [{ name: 'email', value: 'not-an-address' }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: 'wrong_step', fields: [{ field: 'expected_inputs.email' }] });
      expect((await get()).steps[0].status).toBe('pending');
      expect((await s.api.get(`/v1/processes/${id}/variables`)).body.variables).toEqual({});
    });

    it.each([
      ['XX', 'national-id', 'expected_inputs.country'],
      ['CO', 'selfie', 'expected_inputs.document_type'],
      ['ALL', 'national-id', 'expected_inputs.country'],
    ])('refuses the document %s / %s; nothing is stored', async (country, documentType, field) => {
      const { id, web, get } = await started([{ type: 'document' }]);
      const res = await submitStep(web, id, (await get()).steps[0], [
        { name: 'country', value: country },
        { name: 'document_type', value: documentType },
      ]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: 'wrong_step', fields: [{ field }] });
      expect((await get()).steps[0].status).toBe('pending');
      expect((await s.api.get(`/v1/processes/${id}/variables`)).body.variables).toEqual({});
    });

    it.each([
      ['3001234567', 'not E.164'],
      ['+441234567890', 'a country the phone provider does not serve'],
    ])('refuses the phone number %s (%s); nothing is stored', async (value) => {
      const { id, web, get } = await started([{ type: 'phone' }]);
      const res = await submitStep(web, id, (await get()).steps[0], [{ name: 'phone_number', value }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: 'wrong_step', fields: [{ field: 'expected_inputs.phone_number' }] });
      expect((await get()).steps[0].status).toBe('pending');
    });

    it('e-mail code: refuses a malformed code, counts a wrong one, and the right one finishes the step', async () => {
      const email = `code.${Date.now()}@example.com`;
      const { id, web, get } = await started([{ type: 'email' }, FORM_STEP]);
      await submitStep(web, id, (await get()).steps[0], [{ name: 'email', value: email }]);
      const step = await stepWithValidation(web, id);
      expect(step.expected_inputs).toEqual(['code']);
      const code = await emailCode(s, email);
      for (const bad of [
        [{ name: 'code', value: '12ab' }],
        [
          { name: 'code', value: code },
          { name: 'email', value: email },
        ],
      ]) {
        const res = await submitStep(web, id, step, bad);
        expect(res.status).toBe(400);
        expect(res.body.error_code).toBe('wrong_step');
      }
      const wrong = await submitStep(web, id, step, [{ name: 'code', value: code === '000000' ? '111111' : '000000' }]);
      expect(wrong.status).toBe(200);
      expect(wrong.body.steps[0]).toMatchObject({
        status: 'awaiting_validation',
        code_status: 'rejected',
        attempts_left: 2,
      });
      const right = await submitStep(web, id, step, [{ name: 'code', value: code }]);
      expect(right.body.steps[0]).toMatchObject({ code_status: 'accepted' });
      await eventually(async () => expect((await get()).steps[0].status).toBe('success'));
      expect((await get()).current_step).toBe(1);
    });

    it('e-mail code: a person locked out for wrong codes is told the wait in plain words (429, not a field error)', async () => {
      const email = `locked.${Date.now()}@example.com`;
      const { id, web, get, link } = await started([{ type: 'email' }, FORM_STEP]);
      await submitStep(web, id, (await get()).steps[0], [{ name: 'email', value: email }]);
      const step = await stepWithValidation(web, id);
      const code = await emailCode(s, email);
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await submitStep(web, id, step, [{ name: 'code', value: wrong }])).status).toBe(200);
      // The second wrong code, in the page (en): the lockout, with its wait.
      const page = await browser.newPage();
      await page.goto(`${link}&lang=en`);
      await page.getByLabel('Verification code').fill(wrong);
      await page.getByRole('button', { name: 'Continue' }).click();
      await eventually(async () =>
        expect(await page.locator('#errors').innerText()).toMatch(/^Too many attempts: try again in 1[45] minutes\.$/),
      );
      await page.close();
      const locked = await submitStep(web, id, step, [{ name: 'code', value: code }]);
      expect(locked.status).toBe(429);
      expect(locked.body).toMatchObject({ code: 429, error_code: 'too_many_attempts' });
      expect(locked.body.message).toMatch(/^too many attempts: try again in 1[45] minutes$/);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
      // The right code does not get through the lockout either; the step waits.
      expect((await get()).steps[0]).toMatchObject({ status: 'awaiting_validation' });
    });

    it('phone step in the page (pt): the SMS comes in Portuguese (the device information the page sent), the code finishes the step', async () => {
      const phone = `+5730${String(Date.now()).slice(-8)}`;
      const { link } = await pageLink(s, [{ type: 'phone' }, FORM_STEP], 'pt');
      const page = await browser.newPage();
      await page.goto(link);
      const id = await page.locator('main').getAttribute('data-process');
      await eventually(async () =>
        expect(JSON.parse((await s.api.get(`/v1/processes/${id}`)).body.device_info ?? '{}')).toMatchObject({
          language: 'pt',
        }),
      );
      await page.getByLabel('Número de telefone').fill(phone);
      await page.getByRole('button', { name: 'Enviar' }).click();
      const text = await eventually(
        async () => {
          const msgs = (
            await s.validationsApi.get(`/v1/sandbox/phone-messages?phone_number=${encodeURIComponent(phone)}`)
          ).body;
          const found = /seu código de verificação é (\d{6})/.exec(JSON.stringify(msgs));
          if (!found) throw new Error(`no SMS in Portuguese yet: ${JSON.stringify(msgs)}`);
          return found[1];
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      await page.getByLabel('Código de verificação').fill(text, { timeout: 60_000 });
      await page.getByRole('button', { name: 'Continuar' }).click();
      await page.getByRole('heading', { name: 'Seus dados' }).waitFor({ timeout: 60_000 });
      expect((await s.api.get(`/v1/processes/${id}`)).body.steps[0].status).toBe('success');
      await page.close();
    });
  });

  describe('uploads', () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

    it('refuses an unknown slot, a missing or non-Base64 file, and a step that waits for no file', async () => {
      const { id, web } = await started([FORM_STEP, { type: 'document' }]);
      const put = (slot: string, body: unknown) =>
        web.request<any>('PUT', `/web/processes/${id}/uploads/${slot}`, body, { 'content-type': 'application/json' });
      const slot = await put('back', { file: png });
      expect(slot.status).toBe(400);
      expect(slot.body.fields).toEqual([expect.objectContaining({ field: 'slot' })]);
      expect((await put('front', {})).body.fields).toEqual([expect.objectContaining({ field: 'file' })]);
      const notBase64 = await put('front', { file: 'not base64!' });
      expect(notBase64.status).toBe(400);
      expect(notBase64.body.fields).toEqual([expect.objectContaining({ field: 'file' })]);
      const early = await put('front', { file: png });
      expect(early.status).toBe(409);
      expect(early.body.error_code).toBe('upload_not_expected');
    });

    it('needs the process key: none is 401, another key of the flow is 403', async () => {
      const { id } = await started([{ type: 'document' }]);
      const none = await fetch(`${s.identity.url}/web/processes/${id}/uploads/front`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file: png }),
      });
      expect(none.status).toBe(401);
      const other = await started([{ type: 'document' }]);
      const res = await other.web.request(
        'PUT',
        `/web/processes/${id}/uploads/front`,
        { file: png },
        {
          'content-type': 'application/json',
        },
      );
      expect([403, 404]).toContain(res.status);
    });
  });
});
