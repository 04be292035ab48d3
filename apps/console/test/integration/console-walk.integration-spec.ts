import { readFileSync } from 'node:fs';

import { ApiClient, closeDb, eventually } from '@kyc/testing';
import * as ExcelJS from 'exceljs';
import { Browser, Page } from 'playwright-core';

import { axeViolations, launchBrowser, screenshot, signInOnPage } from './support/browser';
import { ConsoleStack, startConsoleStack } from './support/console-fixture';
import { failedFaceProcess } from './support/review-process';

/** A one-sheet xlsx with these rows (a batch's file). */
async function xlsx(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('checks');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

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
  let admin: { account: ApiClient; identity: ApiClient; checks: ApiClient };
  /** The check the walk creates (repeated as a continuous check later). */
  let checkId: string;
  /** A process that failed its face comparison, built while the first pages are walked. */
  let failedProcess: Promise<string>;
  /** Uncaught errors of the page: none expected. */
  const errors: string[] = [];

  beforeAll(async () => {
    [s, browser] = await Promise.all([startConsoleStack({ validations: true }), launchBrowser()]);
    admin = {
      account: new ApiClient(s.account.url, s.tenant.apiKey),
      identity: new ApiClient(s.identity.url, s.tenant.apiKey),
      checks: new ApiClient(s.checks.url, s.tenant.apiKey),
    };
    // The engines read the document and compare the selfie while the browser walks the checks area.
    failedProcess = failedFaceProcess(admin.identity, s.identity.url);
    failedProcess.catch(() => undefined);
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
    checkId = new URL(page.url()).pathname.split('/').pop()!;
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

  it('runs a batch from an xlsx file: progress until it completes, then its report', async () => {
    await page.goto(`${s.console.url}/checks/batches`);
    await page.locator('#batch-country').selectOption('CO');
    await page.fill('#batch-type', 'person');
    await page.click('#start-batch'); // no file chosen: said next to the file input, nothing created
    await page.getByText('Elige el archivo xlsx del lote.').waitFor();
    await screenshot(page, 'batch-new');
    await expectAccessible('new batch');
    // The columns of a CO person batch, in the API's documented order (a batch created and left unused).
    const columns = (await admin.checks.postJson('/v1/batches', { country: 'CO', service: 'checks', type: 'person' }))
      .body.columns as (string | null)[];
    const row = (values: Record<string, string>) => columns.map((c) => (c ? (values[c] ?? '') : ''));
    const file = await xlsx([
      columns.map((c) => c ?? ''),
      row({ user_authorized: 'true', national_id: '1000000003', first_name: 'Lucía', last_name: 'Gómez Ruiz' }),
      row({ user_authorized: 'true', national_id: 'bad id!', first_name: 'Luis', last_name: 'Rojas' }),
    ]);
    await page.locator('input[type=file]').setInputFiles({
      name: 'lote.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    await page.click('#start-batch');
    await page.waitForURL(/\/checks\/batches\/BCH/);
    const batchId = new URL(page.url()).pathname.split('/').pop()!;
    // The page follows the batch until its checks have finished too.
    const bar = page.getByTestId('batch-progress').getByRole('progressbar');
    await eventually(async () => expect(await bar.getAttribute('aria-valuenow')).toBe('100'), {
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    expect(await page.getByTestId('batch-status').textContent()).toBe('completed');
    expect((await admin.checks.get(`/v1/batches/${batchId}`)).body.batch).toMatchObject({
      status: 'completed',
      progress: { rows_total: 2, rows_created: 1, rows_failed: 1, checks_completed: 1 },
    });
    await page.locator('#batch-report:not([disabled])').waitFor();
    await screenshot(page, 'batch');
    await expectAccessible('batch page');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#batch-report')]);
    expect(
      readFileSync(await download.path())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK'); // an xlsx (zip)
  });

  it('repeats a check as a continuous check, lists it and pauses it', async () => {
    await page.goto(`${s.console.url}/checks/continuous`);
    await page.locator('[data-testid="continuous-table"], [data-testid="empty-state"]').first().waitFor();
    await page.fill('#cc-check_id', 'CHKnope');
    await page.click('#create-continuous');
    await page.locator('[data-testid="error-state"], #cc-check_id-error').first().waitFor();
    await page.fill('#cc-check_id', checkId);
    await page.fill('#cc-frequency', 'weekly');
    await page.click('#create-continuous');
    const row = page.getByTestId('continuous-table').locator('tbody tr').filter({ hasText: checkId });
    await row.waitFor();
    expect(await row.textContent()).toContain('Activa');
    await row.getByRole('button', { name: /Pausar/ }).click();
    await row.getByText('En pausa').waitFor();
    const listed = (await admin.checks.get('/v1/continuous-checks')).body.continuous_checks;
    expect(listed).toEqual([expect.objectContaining({ check_id: checkId, frequency: 'weekly', status: 'disabled' })]);
    await screenshot(page, 'continuous');
    await expectAccessible('continuous checks');
  });

  it('shows a failed process with its document and face images, logs and PDF, and approves it from the review queue', async () => {
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
    const pending = await admin.identity.withKey(key.body.api_key).post('/v1/processes');
    expect(pending.status).toBe(201);
    const pendingId = pending.body.process_id as string;
    const failedId = await failedProcess;

    // Its page: the steps with the engine's reason, the three photos through their signed links, the log, the PDF.
    await page.goto(`${s.console.url}/processes/${failedId}`);
    await page.getByTestId('process-status').waitFor();
    expect(await page.getByTestId('process-status').textContent()).toBe('failure');
    const images = page.getByTestId('validation-image');
    await eventually(async () => expect(await images.count()).toBe(3), { timeoutMs: 20_000, intervalMs: 250 });
    for (const image of await images.all()) {
      expect(await image.getAttribute('src')).toMatch(new RegExp(`^${s.validations!.url}/v1/media/.+signature=`));
      await eventually(async () =>
        expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true),
      );
    }
    await page.getByTestId('process-logs').getByText('camera permission asked').waitFor();
    const [pdf] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.click('#process-pdf')]);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
    await screenshot(page, 'process');
    await expectAccessible('process page');

    // The queue: the failed process, not the pending one; approved with a reason.
    await page.goto(`${s.console.url}/review`);
    const item = page.getByTestId('review-item').filter({ hasText: failedId });
    await item.waitFor();
    expect(await page.getByTestId('review-item').filter({ hasText: pendingId }).count()).toBe(0);
    await screenshot(page, 'review');
    await expectAccessible('review queue');
    await item.getByTestId('approve').click(); // no reason: said next to the reason, nothing decided
    await item.getByText('Escribe el motivo de la decisión.').waitFor();
    await item.locator('textarea').fill('Documento y selfi revisados a mano: es la misma persona.');
    await item.getByTestId('approve').click();
    await page.getByText('Decisión registrada.').waitFor();
    // the queue reloads after the decision: the item leaves it
    await page.getByTestId('review-item').filter({ hasText: failedId }).waitFor({ state: 'detached' });

    // The API: the new status, who decided and why.
    const users = (await admin.account.get('/v1/account/users?limit=100')).body.users as {
      user_id: string;
      username: string;
    }[];
    const adminId = users.find((u) => u.username === s.adminEmail)!.user_id;
    const decided = (await admin.identity.get(`/v1/processes/${failedId}`)).body;
    expect(decided).toMatchObject({ status: 'success', override_status: 'success' });
    expect(decided.override_status_history).toEqual([
      expect.objectContaining({
        override_status: 'success',
        previous: null,
        user_id: adminId,
        reason: 'Documento y selfi revisados a mano: es la misma persona.',
      }),
    ]);
    await page.goto(`${s.console.url}/processes/${failedId}`);
    await page.getByTestId('decisions').getByText(adminId).waitFor();
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
