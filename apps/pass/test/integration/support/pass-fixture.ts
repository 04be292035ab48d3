import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { ApiClient, freePort, ServiceProcess, signer, SmtpSink, startProcess, startSmtpSink } from '@kyc/testing';
import { Browser, chromium, Page } from 'playwright-core';

export interface PassFixture {
  pass: ServiceProcess;
  smtp: SmtpSink;
  /** Base of the relying party's redirect URIs (a local server answering 200 to any path). */
  rpUrl: string;
  operator: ApiClient;
  close(): Promise<void>;
}

/** Pass as its own OS process (oidc-provider is ESM: it runs from dist/ as in the stack) with an SMTP sink. */
export async function startPass(overrides: Record<string, string> = {}): Promise<PassFixture> {
  const smtp = await startSmtpSink();
  const port = await freePort();
  const pass = await startProcess('pass', port, {
    PASS_SMTP_URL: smtp.url,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...overrides,
  });
  const operator = new ApiClient(pass.url, await signer().platformAdminToken('test'));
  // The relying party: answers its callbacks, and /embed is a page embedding pass's script (another origin).
  const rp: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://rp');
    const body =
      url.pathname === '/embed'
        ? `<!doctype html><html><body><script src="${pass.url}/pass.js"></script>` +
          `<script>window.outcome = null; TruoraPass.init({ clientId: ${JSON.stringify(url.searchParams.get('client_id'))},` +
          ` redirectUri: location.origin, scope: 'openid email',` +
          ` onSuccess: function (r) { window.outcome = { ok: r }; }, onError: function (e) { window.outcome = { error: e }; } });</script>` +
          `<button id="sign-in" onclick="TruoraPass.authorize()">Sign in with Pass</button></body></html>`
        : '<p>back</p>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => rp.listen(0, '127.0.0.1', resolve));
  const rpUrl = `http://localhost:${(rp.address() as AddressInfo).port}`;
  return {
    pass,
    smtp,
    rpUrl,
    operator,
    close: async () => {
      await pass.kill();
      await smtp.close();
      await new Promise((resolve) => rp.close(resolve));
    },
  };
}

export interface TestApplication {
  client_id: string;
  client_secret: string;
  redirect_uri: string;
}

let counter = 0;
/** Registers an application through the admin API (every claim scope, CIBA on unless overridden). */
export async function registerApplication(
  f: PassFixture,
  over: Record<string, unknown> = {},
): Promise<TestApplication> {
  const redirectUri = `${f.rpUrl}/callback/${++counter}`;
  const res = await f.operator.postJson('/v1/admin/applications', {
    tenant_id: 'acme',
    name: 'Acme web',
    redirect_uris: [redirectUri],
    scopes: [
      'openid',
      'email',
      'phone',
      'profile',
      'identity',
      'documents',
      'age',
      'background',
      'verification',
      'approval:read',
    ],
    ciba_enabled: true,
    ...over,
  });
  if (res.status !== 201) throw new Error(`application not registered: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    client_id: res.body.application.client_id,
    client_secret: res.body.application.client_secret,
    redirect_uri: res.body.application.redirect_uris[0],
  };
}

let people = 0;
/** Seeds a person with a verified identity and phone (as the identity events will). */
export async function seedUser(
  operator: ApiClient,
  over: Record<string, unknown> = {},
): Promise<{ email: string; phone: string }> {
  const n = ++people;
  const email = `person${n}.${Date.now()}@example.com`;
  const phone = `+5730012${String(n).padStart(5, '0')}`;
  const res = await operator.request(
    'PUT',
    '/v1/admin/users',
    {
      email,
      phone_number: phone,
      phone_verified: true,
      identity: {
        verified: true,
        verification_level: 'high',
        first_name: 'Ana',
        last_name: 'Gómez',
        birthdate: '1990-04-01',
        nationality: 'CO',
        document_number: '1020304050',
        document_type: 'national-id',
      },
      documents: [{ country: 'co', document_type: 'national-id', document_number: '1020304050' }],
      ...over,
    },
    { 'content-type': 'application/json' },
  );
  if (res.status !== 200) throw new Error(`user not seeded: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, phone };
}

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });

/**
 * Drives the pass pages in the browser: opens the authorization URL, signs in with the e-mail code read
 * from the SMTP sink, and consents; resolves with the URL the browser was sent back to.
 */
export async function signInAndConsent(
  page: Page,
  smtp: SmtpSink,
  authorizationUrl: string,
  redirectUri: string,
  email: string,
): Promise<URL> {
  await page.goto(authorizationUrl);
  await page.fill('#email', email);
  const before = smtp.messages.length;
  await page.click('#send-code');
  const mail = await smtp.waitFor((m) => m.recipients.includes(email) && smtp.messages.indexOf(m) >= before);
  const code = /\b(\d{6})\b/.exec(mail.subject)![1];
  await page.fill('#code', code);
  await page.click('#verify');
  const steps: string[] = [];
  page.on('response', (r) => steps.push(`${r.status()} ${r.url()}`));
  try {
    await page.waitForSelector(`#allow`, { timeout: 10_000 });
    await page.click('#allow');
    await page.waitForURL(`${redirectUri}**`, { timeout: 10_000 });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${steps.join('\n')}\n${(await page.content()).slice(0, 2000)}`);
  }
  return new URL(page.url());
}
