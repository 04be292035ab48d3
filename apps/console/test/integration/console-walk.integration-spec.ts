import { ApiClient, closeDb, eventually } from '@kyc/testing';
import { Browser, Page } from 'playwright-core';

import { axeViolations, launchBrowser, screenshot, signInOnPage } from './support/browser';
import { ConsoleStack, startConsoleStack } from './support/console-fixture';

/**
 * The console in Chromium against the services: sign in with the e-mailed code, run a check and
 * open its findings and PDF, approve a process from the review queue, and invite a user with a
 * restricted role whose session the services refuse what the role forbids. Every page is checked
 * with axe-core (no serious or critical violation) and, with CONSOLE_SCREENSHOTS set, photographed
 * in Spanish for docs/console.md.
 */
describe('console in the browser', () => {
  let s: ConsoleStack;
  let browser: Browser;
  let page: Page;
  let admin: { account: ApiClient; identity: ApiClient };
  /** Uncaught errors of the page: none expected. */
  const errors: string[] = [];

  beforeAll(async () => {
    [s, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
    admin = {
      account: new ApiClient(s.account.url, s.tenant.apiKey),
      identity: new ApiClient(s.identity.url, s.tenant.apiKey),
    };
    page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })
    ).newPage();
  });

  afterEach(() => expect(errors).toEqual([]));

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await closeDb();
  });

  const expectAccessible = async (where: string) => expect([where, await axeViolations(page)]).toEqual([where, []]);

  it('signs in with the code from the mail sink, in the language chosen and remembered', async () => {
    await page.goto(s.console.url);
    await page.selectOption('#language', 'es');
    expect(await page.locator('h1').innerText()).toBe('Entrar a la consola');
    await screenshot(page, 'sign-in');
    await expectAccessible('sign-in');
    await signInOnPage(page, s.console.url, s.smtp, s.adminEmail);
    await page.reload();
    await page.getByTestId('whoami').waitFor();
    expect(await page.locator('nav').innerText()).toContain('Consultas');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'console_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('shows the API errors of the check form next to their field, creates a check and opens its findings and PDF', async () => {
    await page.goto(`${s.console.url}/checks/new`);
    await page.fill('#national_id', '1000000002');
    await page.click('#create-check'); // not authorized by the person: the API refuses it
    await page.locator('#user_authorized-error, [data-testid="error-state"]').first().waitFor();
    await screenshot(page, 'check-new');
    await expectAccessible('check form with errors');

    await page.fill('#first_name', 'Carlos Andrés');
    await page.fill('#last_name', 'Rojas Pérez');
    await page.check('#user_authorized');
    await page.click('#create-check');
    await page.waitForURL(/\/checks\/CHK/);
    await eventually(
      async () => expect((await page.getByTestId('check-status').innerText()).toLowerCase()).toBe('completed'),
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    await page.getByTestId('datasets').waitFor();
    expect(await page.getByTestId('datasets').locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'check');
    await expectAccessible('check page');

    await page.click('#generate-pdf');
    await page.locator('#download-pdf').waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-pdf')]);
    const file = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file).subarray(0, 4).toString()).toBe('%PDF');

    await page.goto(`${s.console.url}/checks`);
    await page.getByTestId('checks-table').waitFor();
    await screenshot(page, 'checks');
    await expectAccessible('checks list');
  });

  it('lists the review queue (finished, failed, not yet decided) and a process page', async () => {
    // A process still pending: not in the queue (identity's override-status takes finished processes only).
    const flow = await admin.identity.postJson('/v1/flows', {
      name: 'Onboarding',
      redirect_url: 'https://example.test/done',
      timeout_seconds: 600,
      steps: [{ type: 'form', fields: [{ name: 'first_name', label: 'First name' }] }],
    });
    expect(flow.status).toBe(201);
    const key = await admin.identity.postJson('/v1/api-keys', {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: flow.body.flow_id,
      country: 'CO',
      redirect_url: 'https://example.test/done',
    });
    expect(key.status).toBe(201);
    const created = await admin.identity.withKey(key.body.api_key).post('/v1/processes');
    expect(created.status).toBe(201);
    const processId = created.body.process_id as string;

    await page.goto(`${s.console.url}/review`);
    await page.locator('[data-testid="review-item"], [data-testid="empty-state"]').first().waitFor();
    expect(await page.getByTestId('review-item').filter({ hasText: processId }).count()).toBe(0);
    await screenshot(page, 'review');
    await expectAccessible('review queue');

    await page.goto(`${s.console.url}/processes/${processId}`);
    await page.getByTestId('process-status').waitFor();
    await screenshot(page, 'process');
    await expectAccessible('process page');
  });

  it('invites a user with a restricted role, whose session the services refuse what the role forbids', async () => {
    await page.goto(`${s.console.url}/admin/roles`);
    await page.fill('#role-name', 'solo_consultas_co');
    await page.getByLabel('checks.country_co', { exact: true }).check();
    await page.click('#create-role');
    await page.getByText('solo_consultas_co').first().waitFor();
    await screenshot(page, 'roles');
    await expectAccessible('roles');

    const email = `analista.${Date.now()}@${s.tenant.tenantId}.test`;
    await page.goto(`${s.console.url}/admin/users`);
    await page.fill('#invite-email', email);
    await page.selectOption('#invite-role', 'solo_consultas_co');
    await page.click('#invite');
    await page.getByTestId('users-table').getByText(email).waitFor();
    await screenshot(page, 'users');
    await expectAccessible('users');

    for (const [path, name] of [
      ['/admin/api-keys', 'api-keys'],
      ['/admin/audit', 'audit'],
      ['/processes', 'processes'],
    ] as const) {
      await page.goto(`${s.console.url}${path}`);
      await page.locator('h2').waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, name);
      await expectAccessible(name);
    }

    // Her own browser: the role allows checks, not user administration.
    const hers = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
    await hers.goto(s.console.url);
    await hers.selectOption('#language', 'es');
    await eventually(() => signInOnPage(hers, s.console.url, s.smtp, email), { timeoutMs: 30_000, intervalMs: 500 });
    expect(await hers.locator('nav').innerText()).not.toContain('Usuarios');
    await hers.goto(`${s.console.url}/admin/users`);
    const refusal = hers.getByTestId('error-state');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('Tu rol no permite esto.');
    expect(await refusal.innerText()).toContain('svc.users');
    await screenshot(hers, 'forbidden');
    page = hers;
    await expectAccessible('forbidden (tablet)');
  });
});
