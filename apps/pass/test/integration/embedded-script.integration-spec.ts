import { closeDb } from '@kyc/testing';
import { Browser, Page } from 'playwright-core';

import {
  launchBrowser,
  PassFixture,
  registerApplication,
  seedUser,
  startPass,
  TestApplication,
} from './support/pass-fixture';

type Outcome = {
  ok?: { code: string; state: string; code_verifier: string };
  error?: { error: string; error_description: string; state: string };
};

/** TruoraPass.init / authorize on a page of another origin, the code delivered through web_message. */
describe('pass: embedded script with web_message', () => {
  let f: PassFixture;
  let browser: Browser;
  let app: TestApplication;
  let user: { email: string };

  const openEmbed = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => problems.push(m.text()));
    page.on('response', (r) => problems.push(`${r.status()} ${r.url()}`));
    page.on('requestfailed', (r) => problems.push(`failed ${r.url()} ${r.failure()?.errorText}`));
    await page.goto(`${f.rpUrl}/embed?client_id=${app.client_id}`);
    await page
      .waitForFunction(() => 'TruoraPass' in globalThis, undefined, { timeout: 5_000 })
      .catch(async () => {
        throw new Error(`the script did not load: ${problems.join('; ')} ${await page.content()}`);
      });
    const [popup] = await Promise.all([context.waitForEvent('page'), page.click('#sign-in')]);
    await popup.waitForURL(/\/interaction\//);
    return { page, popup, context };
  };
  const outcome = (page: Page) =>
    page
      .waitForFunction(() => (globalThis as unknown as { outcome: unknown }).outcome)
      .then((h) => h.jsonValue() as Promise<Outcome>);

  beforeAll(async () => {
    f = await startPass();
    browser = await launchBrowser();
    app = await registerApplication(f, { allows_web_message: true });
    user = await seedUser(f.operator);
    // the embedding origin is the redirect URI and the allow-listed web-message origin
    await f.operator.request(
      'PATCH',
      `/v1/admin/applications/${app.client_id}`,
      { redirect_uris: [f.rpUrl], allowed_web_message_origins: [f.rpUrl] },
      { 'content-type': 'application/json' },
    );
  });

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  it('delivers the code to onSuccess after sign-in and consent in the popup', async () => {
    const { page, popup, context } = await openEmbed();
    await popup.fill('#email', user.email);
    const before = f.smtp.messages.length;
    await popup.click('#send-code');
    const mail = await f.smtp.waitFor((m) => m.recipients.includes(user.email) && f.smtp.messages.indexOf(m) >= before);
    await popup.fill('#code', /\b(\d{6})\b/.exec(mail.subject)![1]);
    await popup.click('#verify');
    await popup.click('#allow');
    const result = await outcome(page);
    expect(result.ok).toEqual({
      code: expect.any(String),
      state: expect.any(String),
      code_verifier: expect.any(String),
    });
    const tokens = await fetch(`${f.pass.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code: result.ok!.code,
        client_id: app.client_id,
        client_secret: app.client_secret,
        redirect_uri: f.rpUrl,
        code_verifier: result.ok!.code_verifier,
      }),
    });
    expect(tokens.status).toBe(200);
    await context.close();
  });

  it('calls onError with error, error_description and state when the user cancels', async () => {
    const { page, popup, context } = await openEmbed();
    await popup.click('#cancel');
    const result = await outcome(page);
    expect(result.error).toEqual({
      error: 'access_denied',
      error_description: expect.any(String),
      state: expect.any(String),
    });
    await context.close();
  });
});
