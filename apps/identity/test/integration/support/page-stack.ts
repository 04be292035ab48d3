import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';

import {
  ApiClient,
  createTenant,
  freePort,
  startInProcess,
  startProcess,
  startSmtpSink,
  TestTenant,
} from '@kyc/testing';
import { Browser, chromium, Page } from 'playwright-core';

import { identityService } from '../../../src/app.module';

export const FIXTURES = path.resolve(__dirname, '../../fixtures');
export const fixture = (name: string) => path.join(FIXTURES, name);

/** Account, validations (real engines, e-mail to an SMTP sink) and identity, with a tenant and a relying site. */
export async function startPageStack(validationsEnv: Record<string, string> = {}) {
  const smtp = await startSmtpSink();
  const [accountPort, validationsPort] = await Promise.all([freePort(), freePort()]);
  const [account, validations, identity] = await Promise.all([
    startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
    startProcess('validations', validationsPort, {
      VALIDATIONS_SMTP_URL: smtp.url,
      VALIDATIONS_SECRET_KEY: 'integration-test-secret-key',
      VALIDATIONS_REVIEW_HOURS: '0-0',
      KAFKA_CONSUMER_GROUP: `validations-${randomUUID().slice(0, 8)}`,
      ...validationsEnv,
    }),
    startInProcess('identity', identityService, {
      JOBS_POLL_MS: '100',
      IDENTITY_SMTP_URL: smtp.url,
      IDENTITY_VALIDATIONS_URL: `http://127.0.0.1:${validationsPort}`,
    }),
  ]);
  const tenant: TestTenant = await createTenant(account.url, [identity.url, validations.url]);
  const api = new ApiClient(identity.url, tenant.apiKey);
  // The relying party's site the page redirects to at the end.
  const site: Server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>back</p>'),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  return {
    smtp,
    identity,
    validations,
    tenant,
    api,
    siteUrl,
    validationsApi: new ApiClient(validations.url, tenant.apiKey),
    async close() {
      await Promise.all([identity.close(), validations.close(), account.close()]);
      await smtp.close();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}
export type PageStack = Awaited<ReturnType<typeof startPageStack>>;

export const launchBrowser = (args: string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', ...args],
  });

/** Chromium whose camera shows `video` (a Y4M file, looped) and answers the permission prompt itself. */
export const launchCameraBrowser = (video: string): Promise<Browser> =>
  launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);

/** A phone-sized page (390×844), the camera allowed. */
export const phonePage = async (browser: Browser): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['camera'] });
  return context.newPage();
};

/** With IDENTITY_PAGE_SCREENSHOTS=<dir> (off in CI), the page as it is, as <dir>/identity-<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.IDENTITY_PAGE_SCREENSHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `identity-${name}.png`), fullPage: true });
}

/** A flow and a temporary web key bound to it; resolves with the page link. */
export async function pageLink(
  s: PageStack,
  steps: unknown[],
  lang?: string,
): Promise<{ flowId: string; key: string; link: string }> {
  const flow = await s.api.postJson('/v1/flows', { name: 'Page flow', timeout_seconds: 3600, steps });
  if (flow.status !== 201) throw new Error(`flow: ${flow.status} ${JSON.stringify(flow.body)}`);
  const key = await s.api.post('/v1/api-keys', {
    key_type: 'web',
    grant: 'digital-identity',
    flow_id: flow.body.flow_id,
    country: 'CO',
    redirect_url: `${s.siteUrl}/done`,
  });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  const link = `${s.identity.url}/web?token=${encodeURIComponent(key.body.api_key)}${lang ? `&lang=${lang}` : ''}`;
  return { flowId: flow.body.flow_id, key: key.body.api_key, link };
}

/**
 * The access link of a flow (POST /v1/web-integration/{flow}/process-access-link, channel email), read from the
 * e-mail the end user receives. The link's origin is identity's PUBLIC_URL; the test's identity listens on a
 * free port, so the path and query are opened there.
 */
export async function accessLink(s: PageStack, steps: unknown[], lang: string): Promise<{ link: string; url: string }> {
  const flow = await s.api.postJson('/v1/flows', {
    name: 'Page flow',
    timeout_seconds: 3600,
    redirect_url: `${s.siteUrl}/done`,
    steps,
  });
  if (flow.status !== 201) throw new Error(`flow: ${flow.status} ${JSON.stringify(flow.body)}`);
  const to = `link.${randomUUID().slice(0, 8)}@example.com`;
  const res = await s.api.post(`/v1/web-integration/${flow.body.flow_id}/process-access-link`, {
    message_channel: 'email',
    email: to,
    lang,
  });
  if (res.status !== 201) throw new Error(`access link: ${res.status} ${JSON.stringify(res.body)}`);
  const mail = await s.smtp.waitFor((m) => m.recipients.includes(to), 60_000);
  const found = /(https?:\/\/\S+\/web\?\S+)/.exec(mail.text)?.[1];
  if (!found) throw new Error(`no link in the e-mail: ${mail.text}`);
  const url = new URL(found);
  return { url: found, link: `${s.identity.url}${url.pathname}${url.search}` };
}

export const FORM_STEP = {
  type: 'form',
  fields: [
    { name: 'first_name', label: 'First name' },
    { name: 'last_name', label: 'Last name' },
    { name: 'nickname', label: 'Nickname', required: false },
  ],
};

/** The 6-digit code of the last e-mail sent to `to`. */
export async function emailCode(s: PageStack, to: string): Promise<string> {
  const mail = await s.smtp.waitFor((m) => m.recipients.includes(to), 60_000);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in the e-mail: ${mail.text}`);
  return code;
}

export const processIdOf = (page: Page) => page.locator('main').getAttribute('data-process');
export const headingOf = (page: Page) => page.locator('h1').innerText();
