import { ManualClock } from '@kyc/platform';
import { ApiClient, closeDb, db, eventually, freePort } from '@kyc/testing';
import * as ExcelJS from 'exceljs';

import { codeFor, ConsoleClient, ConsoleStack, startConsoleStack } from './support/console-fixture';

/**
 * The console's sign-in and session at the HTTP boundary: e-mail codes through the platform's
 * one-time codes, the cookie's attributes, CSRF on every state-changing request, the user's
 * short-lived key deciding in each service, and the session ending on sign-out (everywhere), idle
 * timeout and a disabled user.
 */
describe('console session', () => {
  const clock = new ManualClock(new Date());
  let s: ConsoleStack;
  let admin: ApiClient;
  let closedPort: number;

  beforeAll(async () => {
    closedPort = await freePort();
    s = await startConsoleStack({ clock, env: { CONSOLE_VALIDATIONS_URL: `http://127.0.0.1:${closedPort}` } });
    admin = new ApiClient(s.account.url, s.tenant.apiKey);
  });

  afterAll(async () => {
    await s?.close();
    await closeDb();
  });

  const consoleClient = () => new ConsoleClient(s.console.url);

  it('sends a code to a user e-mail, answers the same for an unknown one, and signs in with an HttpOnly SameSite=Strict cookie', async () => {
    const c = consoleClient();
    const before = s.smtp.messages.length;
    const unknown = await c.request('POST', '/api/session/code', { email: 'nobody@nowhere.test' });
    expect(unknown.status).toBe(202);
    const known = await c.request('POST', '/api/session/code', { email: s.adminEmail });
    expect(known.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const code = await codeFor(s.smtp, s.adminEmail, before);
    expect(s.smtp.messages.slice(before).some((m) => m.recipients.includes('nobody@nowhere.test'))).toBe(false);

    const wrong = await c.request('POST', '/api/session', {
      email: s.adminEmail,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_code).toBe('wrong_code');
    expect(wrong.body.fields[0].field).toBe('code');

    const res = await c.request('POST', '/api/session', { email: s.adminEmail, code });
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^console_session=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // Served on the loopback over HTTP (development): not Secure; anywhere else it is (see console.config).
    expect(cookie).not.toContain('Secure');
    expect(res.body).toMatchObject({ tenant_id: s.tenant.tenantId, username: s.adminEmail, role: 'full_access' });
    expect(JSON.stringify(res.body)).not.toMatch(/eyJ/); // no API key reaches the page

    // The code is used up.
    const again = await consoleClient().request('POST', '/api/session', { email: s.adminEmail, code });
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe('code_unavailable');

    // Only the token's hash is stored.
    const rows = await db().query(`SELECT token_hash FROM console.sessions WHERE user_id = $1`, [s.tenant.adminUserId]);
    expect(rows.rows.map((r) => r.token_hash)).not.toContain(c.cookie.split('=')[1]);
  });

  it('calls the services as the signed-in user and never reaches the platform administration routes', async () => {
    const c = consoleClient();
    await c.signIn(s.smtp, s.adminEmail);
    const whoami = await c.request('GET', '/api/services/checks/v1/auth/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({ tenant_id: s.tenant.tenantId, user_id: s.tenant.adminUserId });
    expect((await c.request('GET', '/api/services/account/v1/admin/tenants')).status).toBe(404);
    expect((await c.request('GET', '/api/services/nosuch/v1/things')).status).toBe(404);
    expect((await consoleClient().request('GET', '/api/services/checks/v1/checks')).status).toBe(401);
  });

  it('passes a batch file to the checks service on the service route only, with the session and its CSRF token', async () => {
    const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const checks = new ApiClient(s.checks.url, s.tenant.apiKey);
    const batch = await checks.postJson('/v1/batches', { country: 'CO', service: 'checks', type: 'person' });
    expect(batch.status).toBe(201);
    const link = new URL(batch.body.file_upload_link as string);
    const route = `/api/services/checks${link.pathname}${link.search}`;
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('checks').addRow(['true', '1000000004', 'Ana', 'Pérez']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const put = (c: ConsoleClient, body: Buffer | string, headers: Record<string, string> = {}) =>
      fetch(`${s.console.url}${route}`, {
        method: 'PUT',
        headers: { 'content-type': xlsxType, cookie: c.cookie, 'x-csrf-token': c.csrf, ...headers },
        body,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error_code?: string; batch?: object } }));

    const c = consoleClient();
    await c.signIn(s.smtp, s.adminEmail);
    // Not the service route: the type is refused before anything is read.
    expect((await c.request('POST', '/api/session/code', 'PK', { 'content-type': xlsxType })).status).toBe(415);
    // No session, or no CSRF token: refused by the console.
    expect(await put(consoleClient(), file)).toMatchObject({ status: 401, body: { error_code: 'signed_out' } });
    expect(await put(c, file, { 'x-csrf-token': 'forged' })).toMatchObject({
      status: 403,
      body: { error_code: 'csrf_rejected' },
    });
    // Passed through as bytes: the service reads them (a file that is not an xlsx is its 400).
    expect(await put(c, 'not a spreadsheet')).toMatchObject({
      status: 400,
      body: { error_code: 'invalid_batch_file' },
    });
    expect(await put(c, file)).toMatchObject({ status: 200, body: { batch: { status: 'file_uploaded' } } });
  });

  it('refuses a state-changing request without the session CSRF token or from another origin (the check is not created)', async () => {
    const c = consoleClient();
    await c.signIn(s.smtp, s.adminEmail);
    const body = {
      country: 'CO',
      type: 'person',
      user_authorized: true,
      national_id: '1000000031',
      force_creation: true,
    };
    const forged = await c.request('POST', '/api/services/checks/v1/checks', body, { 'x-csrf-token': '' });
    expect(forged.status).toBe(403);
    expect(forged.body.error_code).toBe('csrf_rejected');
    const wrongToken = await c.request('POST', '/api/services/checks/v1/checks', body, {
      'x-csrf-token': 'x'.repeat(32),
    });
    expect(wrongToken.status).toBe(403);
    const foreign = await c.request('POST', '/api/services/checks/v1/checks', body, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const list = await c.request('GET', '/api/services/checks/v1/checks');
    expect(list.body.checks.filter((x: any) => x.national_id === '1000000031')).toEqual([]);

    const ok = await c.request('POST', '/api/services/checks/v1/checks', body);
    expect(ok.status).toBe(201);
  });

  it('refuses sign-in requests that a foreign page could make (form bodies, another Origin)', async () => {
    const form = await fetch(`${s.console.url}/api/session/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(s.adminEmail)}`,
    });
    expect(form.status).toBe(403);
    const foreign = await consoleClient().request(
      'POST',
      '/api/session/code',
      { email: s.adminEmail },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
  });

  it('lets each service decide with the user role: a restricted role gets the service 403, a changed role counts within seconds', async () => {
    await admin.postJson('/v1/roles', { name: 'co_analyst', permissions: ['checks.country_co'] });
    const email = `analyst.${Date.now()}@${s.tenant.tenantId}.test`;
    expect((await admin.postJson('/v1/account/users', { email, role: 'co_analyst' })).status).toBe(201);
    const c = consoleClient();
    // A user created a moment ago reaches the console's access cache through Kafka within a second or two.
    await eventually(() => c.signIn(s.smtp, email, undefined, 1_500), { timeoutMs: 15_000, intervalMs: 200 });
    const users = await c.request('GET', '/api/services/account/v1/account/users');
    expect(users.status).toBe(403);
    expect(users.body.error_code).toBe('forbidden');
    expect((await c.request('GET', '/api/services/checks/v1/checks')).status).toBe(200);

    const changed = await admin.request(
      'PUT',
      `/v1/account/users/${encodeURIComponent(email)}`,
      { role: 'full_access' },
      { 'content-type': 'application/json' },
    );
    expect(changed.status).toBe(200);
    await eventually(
      async () => expect((await c.request('GET', '/api/services/account/v1/account/users')).status).toBe(200),
      { timeoutMs: 5_000 },
    );
    expect((await c.request('GET', '/api/session')).body.role).toBe('full_access');
  });

  it('ends a disabled user session within seconds', async () => {
    const email = `leaver.${Date.now()}@${s.tenant.tenantId}.test`;
    expect((await admin.postJson('/v1/account/users', { email, role: 'default_access' })).status).toBe(201);
    const c = consoleClient();
    // A user created a moment ago reaches the console's access cache through Kafka within a second or two.
    await eventually(() => c.signIn(s.smtp, email, undefined, 1_500), { timeoutMs: 15_000, intervalMs: 200 });
    expect((await c.request('GET', '/api/session')).status).toBe(200);
    const disabled = await admin.request(
      'PATCH',
      `/v1/account/users/${encodeURIComponent(email)}/status`,
      { status: 'disabled', reason: 'left' },
      { 'content-type': 'application/json' },
    );
    expect(disabled.status).toBe(200);
    await eventually(async () => expect((await c.request('GET', '/api/session')).status).toBe(401), {
      timeoutMs: 5_000,
    });
    const call = await c.request('GET', '/api/services/checks/v1/checks');
    expect(call.status).toBe(401);
    expect(call.body.error_code).toBe('signed_out');
  });

  it('signs out everywhere: every session of the user ends, on this browser and the others', async () => {
    const [a, b] = [consoleClient(), consoleClient()];
    await a.signIn(s.smtp, s.adminEmail);
    await b.signIn(s.smtp, s.adminEmail);
    const ended = await a.request('POST', '/api/session/end-all');
    expect(ended.status).toBe(201);
    expect(ended.body.sessions_ended).toBeGreaterThanOrEqual(2);
    expect((await a.request('GET', '/api/session')).status).toBe(401);
    expect((await b.request('GET', '/api/services/checks/v1/checks')).status).toBe(401);
  });

  it('ends a session after the idle timeout, and keeps one in use', async () => {
    const c = consoleClient();
    await c.signIn(s.smtp, s.adminEmail);
    clock.advance(20 * 60_000);
    expect((await c.request('GET', '/api/session')).status).toBe(200);
    clock.advance(20 * 60_000);
    expect((await c.request('GET', '/api/session')).status).toBe(200); // used 20 minutes ago
    clock.advance(31 * 60_000);
    expect((await c.request('GET', '/api/session')).status).toBe(401);
  });

  it('answers a service that does not answer with 502 service_unreachable in the envelope', async () => {
    const c = consoleClient();
    await c.signIn(s.smtp, s.adminEmail);
    const res = await c.request('GET', '/api/services/validations/v1/validations');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 502, error_code: 'service_unreachable' });
  });
});
