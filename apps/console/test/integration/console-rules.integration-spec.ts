import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { ApiClient, closeDb, eventually } from '@kyc/testing';
import { Browser, Page } from 'playwright-core';

import { axeViolations, launchBrowser, screenshot, signInOnPage } from './support/browser';
import { ConsoleStack, startConsoleStack } from './support/console-fixture';

/**
 * The rules area in Chromium, in Spanish: a rule built with the visual JSON-Logic editor (its JSON
 * beside it), an HTTP action and a disabled e-mail action, "try it" against a finished check (which
 * actions would run; nothing is sent), then a check finishing after the rule and its execution with
 * the delivery's answer. A part the editor cannot draw survives editing and saving untouched.
 * axe-core on every state; screenshots for docs/console.md with CONSOLE_SCREENSHOTS.
 */
describe('console: the rules builder in the browser', () => {
  let s: ConsoleStack;
  let browser: Browser;
  let page: Page;
  let checks: ApiClient;
  let account: ApiClient;
  let hook: { url: string; received: string[]; close(): Promise<void> };
  const errors: string[] = [];

  /** Creates a check through the API and waits until it finished. */
  const finishedCheck = async (nationalId: string): Promise<string> => {
    const created = await checks.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      national_id: nationalId,
      first_name: 'Carlos',
    });
    expect(created.status).toBe(201);
    const checkId = created.body.check.check_id as string;
    await eventually(
      async () => expect((await checks.get(`/v1/checks/${checkId}`)).body.check.status).toBe('completed'),
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    return checkId;
  };

  beforeAll(async () => {
    [s, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
    checks = new ApiClient(s.checks.url, s.tenant.apiKey);
    account = new ApiClient(s.account.url, s.tenant.apiKey);
    const received: string[] = [];
    const server = http.createServer((req, res) => {
      received.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    hook = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      received,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(s.console.url);
    await page.selectOption('#language', 'es');
    await signInOnPage(page, s.console.url, s.smtp, s.adminEmail);
  });

  afterEach(() => expect(errors).toEqual([]));

  afterAll(async () => {
    await browser?.close();
    await hook?.close();
    await s?.close();
    await closeDb();
  });

  const expectAccessible = async (where: string) => expect([where, await axeViolations(page)]).toEqual([where, []]);
  const json = async () => JSON.parse(await page.getByTestId('logic-json').inputValue()) as unknown;
  let ruleId: string;
  let firstCheck: string;

  it('builds a rule with the visual editor, the JSON following every change', async () => {
    firstCheck = await finishedCheck('1000000002');
    await page.goto(`${s.console.url}/rules`);
    await page.getByTestId('empty-state').waitFor();
    expect(await page.locator('nav').innerText()).toContain('Reglas de negocio');
    await expectAccessible('rules (empty)');

    await page.click('#new-rule');
    await page.fill('#rule-name', 'Consultas de Colombia');
    // Keyboard: the group's "add condition" button reached and pressed without a mouse.
    const add = page.getByTestId('logic-group-0').getByRole('button', { name: 'Agregar condición' });
    await add.focus();
    await page.keyboard.press('Enter');
    const first = page.getByTestId('logic-condition-1');
    await first.getByTestId('logic-variable').selectOption('country');
    await first.getByTestId('logic-value').selectOption('CO');
    expect(await json()).toEqual({ and: [{ '==': [{ var: 'country' }, 'CO'] }] });

    await add.click();
    const second = page.getByTestId('logic-condition-2');
    await second.getByTestId('logic-variable').selectOption('score');
    await second.getByTestId('logic-operator').selectOption('<=');
    await second.getByTestId('logic-value').fill('1');
    // A nested "any of" group.
    await page.getByTestId('logic-group-0').getByRole('button', { name: 'Agregar grupo' }).click();
    const nested = page.getByTestId('logic-condition-3.1');
    await nested.getByTestId('logic-variable').selectOption('type');
    await nested.getByTestId('logic-operator').selectOption('in');
    await nested.getByTestId('logic-value').fill('person, company');
    expect(await json()).toEqual({
      and: [
        { '==': [{ var: 'country' }, 'CO'] },
        { '<=': [{ var: 'score' }, 1] },
        { or: [{ in: [{ var: 'type' }, ['person', 'company']] }] },
      ],
    });
    await screenshot(page, 'rule-new');
    await expectAccessible('new rule with the editor');

    await page.click('#save-rule');
    await page.waitForURL(/\/rules\/RUL/);
    ruleId = /\/rules\/(RUL\w+)/.exec(page.url())![1];
    await page.getByTestId('rule-meta').waitFor();
    expect((await account.get(`/v1/bre/rules/${ruleId}`)).body.rule.condition).toEqual(await json());
  });

  it('adds an HTTP action and a disabled e-mail action, with the API errors next to their field', async () => {
    await page.fill('#action-new-name', 'Avisar al CRM');
    await page.fill('#action-new-url', 'ftp://nope');
    await page.click('#action-new-save');
    await page.locator('#action-new-url-error').waitFor();
    await page.fill('#action-new-url', `${hook.url}/kyc/{{.check_id}}`);
    await page.click('#action-new-save');
    await page.getByTestId('action-item').filter({ hasText: 'Avisar al CRM' }).waitFor();

    await page.fill('#action-new-name', 'Correo a operaciones');
    await page.selectOption('#action-new-type', 'email');
    await page.fill('#action-new-to', 'ops@example.test');
    await page.fill('#action-new-subject', 'Consulta {{.check_id}}');
    await page.fill('#action-new-body', 'Puntaje {{.score}}');
    await page.click('#action-new-save');
    const mail = page.getByTestId('action-item').filter({ hasText: 'Correo a operaciones' });
    await mail.waitFor();
    await mail.getByRole('switch').click({ force: true });
    await eventually(
      async () => {
        const { actions } = (await account.get(`/v1/bre/rules/${ruleId}`)).body.rule;
        expect(actions.map((a: any) => [a.name, a.status])).toEqual([
          ['Avisar al CRM', 'enabled'],
          ['Correo a operaciones', 'disabled'],
        ]);
      },
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    await mail.getByText('Desactivada').waitFor();

    // A secret env var of the HTTP action: stored, listed by name, its value never shown again.
    const crm = page.getByTestId('action-item').filter({ hasText: 'Avisar al CRM' });
    await crm.locator('summary').click();
    await crm.getByLabel('Nombre').fill('API_TOKEN');
    await crm.getByLabel('Valor').fill('tok-123-secreto');
    await crm.getByLabel('Secreta (se guarda cifrada, nunca se muestra)').check();
    await crm.getByRole('button', { name: 'Guardar variable' }).click();
    await crm.getByRole('cell', { name: 'API_TOKEN', exact: true }).waitFor();
    expect(await page.content()).not.toContain('tok-123-secreto');
    await expectAccessible('rule with actions');
  });

  it('tries the rule against a finished check: which actions would run, nothing sent', async () => {
    await page.selectOption('#try-check', firstCheck);
    await page.click('#try-it');
    const verdict = page.getByTestId('try-verdict');
    await verdict.waitFor();
    expect(await verdict.innerText()).toContain('La condición se cumple para esta consulta.');
    const rows = page.getByTestId('try-actions').locator('tbody tr');
    expect((await rows.nth(0).innerText()).toLowerCase()).toContain('sí');
    expect(await rows.nth(1).innerText()).toContain('la acción está desactivada');
    await screenshot(page, 'rule-try');
    await expectAccessible('try it');
    expect(hook.received).toEqual([]);
    expect((await account.get(`/v1/bre/rules/${ruleId}/executions`)).body.executions).toEqual([]);

    // The condition being edited (not saved) is what is tried.
    await page.getByTestId('logic-condition-1').getByTestId('logic-value').selectOption('MX');
    await page.click('#try-it');
    await page.getByText('La condición no se cumple para esta consulta.').waitFor();
    await page.getByTestId('logic-condition-1').getByTestId('logic-value').selectOption('CO');
  });

  it('shows the executions of a check that finished after the rule, with the delivery answer', async () => {
    const later = await finishedCheck('1000000003');
    await eventually(() => expect(hook.received).toEqual([`/kyc/${later}`]), { timeoutMs: 30_000, intervalMs: 200 });
    await eventually(
      async () => {
        await page.click('#reload-executions');
        const row = page.getByTestId('execution-row').first();
        await row.waitFor({ timeout: 2_000 });
        const text = (await row.innerText()).toLowerCase();
        expect(text).toContain('exitosa');
        expect(text).toContain('200');
        expect(text).toContain(later.toLowerCase());
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(await page.getByTestId('execution-row').count()).toBe(1); // the disabled e-mail did not run
    await screenshot(page, 'rule-executions');
    await expectAccessible('executions');
  });

  it('keeps a part it cannot draw as JSON through editing and saving, and lists the rule', async () => {
    const condition = {
      and: [
        { '==': [{ var: 'country' }, 'CO'] },
        { if: [{ var: 'custom_input' }, true, { '>': [{ var: 'score' }, 0.2] }] },
      ],
    };
    await page.getByTestId('logic-json').fill(JSON.stringify(condition));
    await page.getByTestId('logic-raw-2').waitFor();
    await page.getByTestId('logic-condition-1').getByTestId('logic-value').selectOption('MX');
    await page.click('#save-rule');
    const expected = { and: [{ '==': [{ var: 'country' }, 'MX'] }, condition.and[1]] };
    await eventually(
      async () => expect((await account.get(`/v1/bre/rules/${ruleId}`)).body.rule.condition).toEqual(expected),
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    await page.reload();
    await page.getByTestId('logic-raw-2').waitFor();
    expect(await json()).toEqual(expected);
    await screenshot(page, 'rule-raw');
    await expectAccessible('rule with a raw part');

    await page.goto(`${s.console.url}/rules`);
    await page.getByTestId('rules-table').getByText('Consultas de Colombia').waitFor();
    await screenshot(page, 'rules');
    await expectAccessible('rules list');
  });
});
