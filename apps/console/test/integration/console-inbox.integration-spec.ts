import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { ApiClient, closeDb, createRoleUser, eventually } from '@kyc/testing';
import { Browser, BrowserContext, Page } from 'playwright-core';

import { axeViolations, launchBrowser, screenshot, signInOnPage } from './support/browser';
import { ConsoleStack, startConsoleStack } from './support/console-fixture';

/** Users writing to the line; user i's first message opens its chat. */
const USERS = 6;
const MESSAGES = 50;
/** Messages delivered while agent ana's page is offline (its push channel dropped): counted for loss, not latency. */
const OFFLINE = [26, 27, 28, 29, 30];

const phone = (u: number) => `57300555${String(u).padStart(4, '0')}`;
const textOf = (i: number) => `m${i}x mensaje ${i}`;

/**
 * The agent inbox in Chromium: two agents' sessions (one browser, two contexts) open on their inbox
 * while the sandbox provider delivers 50 user messages from 6 users to the line. Each message must
 * appear in the right agent's page (the owner's; a queued chat's in both) within 1 s (p99 printed),
 * assignment must respect the capacities (3 and 2: the sixth chat waits), and nothing may be shown
 * twice or lost across a forced reconnect of the push channel (ana's page goes offline for five
 * messages). Then the chat page: the window state, a reply, a note, a refusal in words; axe-clean.
 */
describe('agent inbox in the browser', () => {
  let s: ConsoleStack;
  let browser: Browser;
  let admin: ApiClient;
  const agents: { email: string; ctx: BrowserContext; page: Page }[] = [];
  let t: { wabaId: string; phoneNumberId: string };
  const errors: string[] = [];

  beforeAll(async () => {
    [s, browser] = await Promise.all([startConsoleStack({ engagement: true }), launchBrowser()]);
    admin = new ApiClient(s.engagement!.url, s.tenant.apiKey);
    // The tenant's WABA at the sandbox provider, its line synced.
    const waba = s.sandbox!.createWaba();
    const saved = await admin.put('/v1/msg/provider-credentials', {
      access_token: s.sandbox!.accessToken,
      waba_id: waba.waba_id,
      app_secret: s.sandbox!.appSecret,
      verify_token: `vt-${randomBytes(6).toString('hex')}`,
    });
    expect(saved.status).toBe(200);
    expect((await admin.post('/v1/msg/waba-subscription')).status).toBe(200);
    t = { wabaId: waba.waba_id, phoneNumberId: waba.phone_numbers[0].id };
    // Two agents of a role without the manager's permission.
    const first = await createRoleUser(
      s.account.url,
      s.tenant,
      { name: 'desk_agent', permissions: ['engagement.chats.agent', 'engagement.chats.read'] },
      [s.engagement!.url],
    );
    const firstMe = await new ApiClient(s.engagement!.url, first.apiKey).get<{ username: string }>('/v1/auth/whoami');
    const second = `bea@${s.tenant.tenantId}.test`;
    const created = await new ApiClient(s.account.url, s.tenant.apiKey).postJson('/v1/account/users', {
      email: second,
      role: 'desk_agent',
    });
    expect(created.status).toBe(201);
    for (const email of [firstMe.body.username.toLowerCase(), second]) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-CO' });
      const page = await ctx.newPage();
      page.on('pageerror', (e) => errors.push(`${email}: ${e.message}`));
      await page.addInitScript(() => localStorage.setItem('console.language', 'es'));
      await signInOnPage(page, s.console.url, s.smtp, email);
      agents.push({ email, ctx, page });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await closeDb();
  });

  const deliver = async (i: number) => {
    const res = await fetch(`${s.sandbox!.url}/_sandbox/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        phone_number_id: t.phoneNumberId,
        from: phone(i % USERS),
        text: textOf(i),
        name: `Usuario ${i % USERS}`,
      }),
    });
    expect(res.status).toBe(200);
  };

  /** A message from any phone (a new user opens a new chat). */
  const deliverFrom = async (from: string, text: string) => {
    const res = await fetch(`${s.sandbox!.url}/_sandbox/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number_id: t.phoneNumberId, from, text, name: `Usuario ${from.slice(-2)}` }),
    });
    expect(res.status).toBe(200);
  };

  /** Each page records when each message first showed in its feed, and how many times it is shown. */
  const watch = (page: Page) =>
    page.evaluate(() => {
      const w = window as unknown as { seen: Record<string, number> };
      w.seen = {};
      const scan = () => {
        for (const li of Array.from(document.querySelectorAll('[data-testid="feed"] li'))) {
          const m = /\bm(\d+)x\b/.exec(li.textContent ?? '');
          if (m && !(m[1] in w.seen)) w.seen[m[1]] = Date.now();
        }
      };
      new MutationObserver(scan).observe(document.body, { childList: true, subtree: true, characterData: true });
      scan();
    });
  const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen);
  const shownCounts = (page: Page) =>
    page.evaluate(() => {
      const counts: Record<string, number> = {};
      for (const li of Array.from(document.querySelectorAll('[data-testid="feed"] li'))) {
        const m = /\bm(\d+)x\b/.exec(li.textContent ?? '');
        if (m) counts[m[1]] = (counts[m[1]] ?? 0) + 1;
      }
      return counts;
    });

  it('pushes 50 user messages to the right agent within a second, within capacities, none twice or lost across a reconnect', async () => {
    const [ana, bea] = agents;
    for (const a of agents) {
      await a.page.goto(`${s.console.url}/inbox`);
      await a.page.getByTestId('channel-state').and(a.page.locator('[data-state="open"]')).waitFor();
      await a.page.getByTestId('online-switch').click();
      await a.page.getByTestId('my-status').getByText('En línea').waitFor();
    }
    const caps = [
      [ana.email, 3],
      [bea.email, 2],
    ] as const;
    for (const [email, capacity] of caps) {
      const res = await admin.postJson('/v1/engagement/agent/capacities', {
        update_type: 'user',
        capacity,
        targets: [email],
      });
      expect(res.status).toBe(200);
    }
    await Promise.all(agents.map((a) => watch(a.page)));

    const sentAt: Record<number, number> = {};
    const sendAll = async (from: number, to: number) => {
      for (let i = from; i <= to; i++) {
        sentAt[i] = Date.now();
        await deliver(i);
      }
    };
    const owners = async () => {
      const res = await admin.get<{ chats: { contact: { phone: string }; owner: string | null }[] }>(
        '/v1/engagement/chat/search?status=open&limit=100',
      );
      return new Map(res.body.chats.map((c) => [c.contact.phone, c.owner]));
    };
    // Messages 1..USERS open the six chats; assignment runs after each arrives, so the test waits until
    // the capacities are taken (five chats owned, the sixth queued) before the rest: from then on who
    // may see a chat's messages does not change.
    await sendAll(1, USERS);
    await eventually(
      async () => {
        const o = await owners();
        expect([o.size, [...o.values()].filter((owner) => owner).length]).toEqual([USERS, 5]);
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    // Messages USERS+1..25, ana's page then drops its connection (offline) for five, then 31..50.
    await sendAll(USERS + 1, OFFLINE[0] - 1);
    const visibleIn = (owner: string | null | undefined) =>
      agents.filter((a) => owner === null || owner === undefined || a.email === owner);
    // Ana's page sees what it should up to here before it goes offline.
    await eventually(
      async () => {
        const o = await owners();
        const mine = await seen(ana.page);
        for (let i = 1; i < OFFLINE[0]; i++)
          if (visibleIn(o.get(`+${phone(i % USERS)}`)).includes(ana)) expect(mine[i]).toBeDefined();
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    await ana.ctx.setOffline(true);
    await ana.page.getByTestId('channel-state').and(ana.page.locator('[data-state="reconnecting"]')).waitFor();
    await sendAll(OFFLINE[0], OFFLINE[OFFLINE.length - 1]);
    await new Promise((r) => setTimeout(r, 500)); // offline for a while: the five are written meanwhile
    await ana.ctx.setOffline(false);
    await ana.page.getByTestId('channel-state').and(ana.page.locator('[data-state="open"]')).waitFor();
    await sendAll(OFFLINE[OFFLINE.length - 1] + 1, MESSAGES);

    // Every message in the right pages.
    const finalOwners = await owners();
    const expected = (i: number) => visibleIn(finalOwners.get(`+${phone(i % USERS)}`));
    await eventually(
      async () => {
        for (const a of agents) {
          const got = await seen(a.page);
          for (let i = 1; i <= MESSAGES; i++)
            if (expected(i).includes(a)) expect([a.email, i, got[i]]).toEqual([a.email, i, expect.any(Number)]);
        }
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const latencies: number[] = [];
    for (const a of agents) {
      const got = await seen(a.page);
      const counts = await shownCounts(a.page);
      for (let i = 1; i <= MESSAGES; i++) {
        const should = expected(i).includes(a);
        // A user's first message (1..USERS) opens her chat: it is pushed while the chat is still queued,
        // so every agent of the queue may see it once, before the chat is assigned. Any later message is
        // shown once where it belongs and never in another agent's page.
        const opening = i <= USERS && !should;
        if (opening) expect([a.email, i, (counts[i] ?? 0) <= 1]).toEqual([a.email, i, true]);
        else expect([a.email, i, counts[i] ?? 0]).toEqual([a.email, i, should ? 1 : 0]);
        if (should && !(a === ana && OFFLINE.includes(i))) latencies.push(got[i] - sentAt[i]);
      }
    }
    latencies.sort((x, y) => x - y);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)];
    console.log(
      `inbox e2e: ${latencies.length} message-to-screen latencies: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${latencies[latencies.length - 1]} ms`,
    );
    // Printed, not asserted: the 1 s goal is measured by `npm run bench` (engagement-inbox) on a quiet
    // machine; INBOX_E2E_P99_MS asks this walk to hold a bound too.
    if (process.env.INBOX_E2E_P99_MS) expect(p(0.99)).toBeLessThanOrEqual(Number(process.env.INBOX_E2E_P99_MS));

    // Capacities: ana 3, bea 2; the sixth chat waits in the queue.
    const status = await admin.get<{ agents: { username: string; active_chats: number; capacity: number }[] }>(
      '/v1/engagement/agent/status',
    );
    const load = Object.fromEntries(status.body.agents.map((a) => [a.username, [a.active_chats, a.capacity]]));
    expect(load[ana.email]).toEqual([3, 3]);
    expect(load[bea.email]).toEqual([2, 2]);
    expect([...finalOwners.values()].filter((o) => o === null)).toHaveLength(1);
    await ana.page.getByTestId('my-chats').waitFor();
    await screenshot(ana.page, 'inbox');
    expect(await axeViolations(ana.page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a chat page: window state, reply and note; another agent’s chat refuses her reply in words', async () => {
    const [ana, bea] = agents;
    const chats = await admin.get<{ chats: { chat_id: string; owner: string | null }[] }>(
      `/v1/engagement/chat/search?status=open&owner=${encodeURIComponent(ana.email)}`,
    );
    const chatId = chats.body.chats[0].chat_id;
    await ana.page.goto(`${s.console.url}/inbox/chats/${chatId}`);
    await ana.page.getByTestId('conversation').waitFor();
    expect(await ana.page.getByTestId('window-state').getAttribute('data-open')).toBe('true');
    await ana.page.getByTestId('compose-text').fill('Hola, ya te ayudo');
    await ana.page.getByTestId('send').click();
    await ana.page.getByTestId('conversation').getByText('Hola, ya te ayudo').waitFor();
    // Its delivery statuses come pushed: read.
    await ana.page.getByTestId('message-status').getByText('read').waitFor({ timeout: 15_000 });
    await ana.page.getByLabel('Nota interna', { exact: true }).fill('Cliente frecuente');
    await ana.page.getByRole('button', { name: 'Agregar nota' }).click();
    await ana.page.getByTestId('conversation').getByText('Cliente frecuente').waitFor();
    await screenshot(ana.page, 'inbox-chat');
    expect(await axeViolations(ana.page)).toEqual([]);

    // Bea opens ana's chat and tries to answer: the API's refusal, in words.
    await bea.page.goto(`${s.console.url}/inbox/chats/${chatId}`);
    await bea.page.getByTestId('compose-text').fill('no es mío');
    await bea.page.getByTestId('send').click();
    const refusal = bea.page.getByTestId('error-state');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('owned by another agent');
    expect(errors).toEqual([]);
  });

  it('a manager: queues and load pushed, a capacity and the ruleset taking effect, templates, force-dequeue, an export downloaded; es and en', async () => {
    const [ana, bea] = agents;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-CO' });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(`manager: ${e.message}`));
    await page.addInitScript(() => localStorage.setItem('console.language', 'es'));
    await signInOnPage(page, s.console.url, s.smtp, s.adminEmail);
    await page.goto(`${s.console.url}/inbox/manage`);
    await page.getByRole('heading', { name: 'Gestión de la bandeja' }).waitFor();

    const loadOf = (email: string) => page.locator(`[data-agent="${email}"]`).getByTestId('load');
    const waitLoad = (email: string, text: string) =>
      page.locator(`[data-agent="${email}"]`).getByTestId('load').getByText(text, { exact: true }).waitFor();
    const queued = page.getByTestId('queues-section').getByTestId('queued').locator('tr');
    const ownerOf = async (chatPhone: string) => {
      const res = await admin.get<{ chats: { chat_id: string; contact: { phone: string }; owner: string | null }[] }>(
        `/v1/engagement/chat/search?status=open&limit=100`,
      );
      return res.body.chats.find((c) => c.contact.phone === chatPhone);
    };
    const capacity = async (email: string, value: string) => {
      await page.locator(`[data-agent="${email}"]`).getByRole('button', { name: 'Cambiar capacidad' }).click();
      await page.getByLabel('Capacidad', { exact: true }).fill(value);
      await page.getByTestId('capacity-section').getByRole('button', { name: 'Fijar capacidad' }).click();
    };

    // What the first test left: ana 3 of 3, bea 2 of 2, one chat waiting.
    await waitLoad(ana.email, '3 / 3');
    await waitLoad(bea.email, '2 / 2');
    await expect(queued.count()).resolves.toBe(1);
    const waiting = await queued.first().getAttribute('data-chat-id');

    // Bea's capacity to 5: the waiting chat is hers at once, and the page shows it without a reload.
    await capacity(bea.email, '5');
    await waitLoad(bea.email, '3 / 5');
    await page.getByTestId('queues-section').getByTestId('empty-state').waitFor();
    const afterDrain = await admin.get<{ owner: string | null }>(`/v1/engagement/chat/${waiting}`);
    expect(afterDrain.body.owner).toBe(bea.email);

    // An invalid capacity: the API's refusal in words, under the field; nothing changes.
    await capacity(bea.email, '5000');
    await page.getByTestId('capacity-section').getByTestId('error-state').waitFor();
    await page
      .getByTestId('capacity-section')
      .getByText('capacity must be an integer from 0 to 1000')
      .first()
      .waitFor();
    expect(await loadOf(bea.email).innerText()).toBe('3 / 5');
    await screenshot(page, 'inbox-manage-refusal');

    // Ana's to 10; then one of bea's chats closed elsewhere: her load drops on the page (pushed).
    await capacity(ana.email, '10');
    await waitLoad(ana.email, '3 / 10');
    const beas = await admin.get<{ chats: { chat_id: string }[] }>(
      `/v1/engagement/chat/search?status=open&owner=${encodeURIComponent(bea.email)}`,
    );
    const closed = await admin.request(
      'PUT',
      `/v1/engagement/chat/agent/${beas.body.chats[0].chat_id}`,
      { status: 'closed' },
      {
        'content-type': 'application/json',
      },
    );
    expect(closed.status).toBe(200);
    await waitLoad(bea.email, '2 / 5');

    // The ruleset: least busy. Round robin would give the next chat to ana (assigned longest ago);
    // least busy gives it to bea (2 open chats against ana's 3).
    await page.getByLabel('Estrategia').selectOption('least_busy');
    await page.locator('[data-strategy="least_busy"]').waitFor();
    const rs = await admin.get<{ strategy: string }>('/v1/engagement/agent/assignment-rulesets/default');
    expect(rs.body.strategy).toBe('least_busy');
    await deliverFrom(phone(7), 'hola, soy nuevo');
    await eventually(async () => expect((await ownerOf(`+${phone(7)}`))?.owner).toBe(bea.email), {
      timeoutMs: 15_000,
      intervalMs: 100,
    });
    await waitLoad(bea.email, '3 / 5');

    // Agent templates: create, then edit its text.
    const templates = page.getByTestId('templates-section');
    await templates.getByLabel('Nombre de la plantilla').fill('saludo');
    await templates.getByLabel('Texto').fill('Hola, ¿en qué te ayudo?');
    await templates.getByRole('button', { name: 'Agregar plantilla' }).click();
    await templates.getByTestId('templates').getByText('Hola, ¿en qué te ayudo?').waitFor();
    await templates.getByTestId('templates').getByRole('button', { name: 'Editar' }).click();
    await templates.getByLabel('Texto').fill('Hola, soy tu agente. ¿En qué te ayudo?');
    await templates.getByRole('button', { name: 'Guardar plantilla' }).click();
    await templates.getByTestId('templates').getByText('Hola, soy tu agente. ¿En qué te ayudo?').waitFor();
    const saved = await admin.get<{ templates: { template_name: string; content: string }[] }>(
      '/v1/engagement/agent/templates?prefix=saludo',
    );
    expect(saved.body.templates).toEqual([
      expect.objectContaining({ template_name: 'saludo', content: 'Hola, soy tu agente. ¿En qué te ayudo?' }),
    ]);

    // Force-dequeue: bea full and ana offline, a new chat waits; bea has no room (the refusal in
    // words), ana has (an offline agent may be handed a chat by a manager).
    expect(
      (
        await admin.postJson('/v1/engagement/agent/capacities', {
          update_type: 'user',
          capacity: 3,
          targets: [bea.email],
        })
      ).status,
    ).toBe(200);
    // Set through the API by another manager: this page shows it without a reload (pushed `agent.capacity`).
    await waitLoad(bea.email, '3 / 3');
    await ana.page.goto(`${s.console.url}/inbox`);
    await ana.page.getByTestId('my-status').getByText('En línea').waitFor();
    // Ana goes offline on her page: the managers' page shows it in her row without a reload (pushed
    // as `agent.status`, no chat event needed), its time from her click printed.
    const statusShown = (email: string, text: string, timeout?: number) =>
      page.locator(`[data-agent="${email}"]`).getByText(text, { exact: true }).waitFor({ timeout });
    await statusShown(ana.email, 'En línea');
    const clickedAt = Date.now();
    await ana.page.getByTestId('online-switch').click();
    await statusShown(ana.email, 'Desconectada', 5_000);
    const shownAfter = Date.now() - clickedAt;
    console.log(`inbox e2e: an agent's status change on the managers' page ${shownAfter} ms after her click`);
    if (process.env.INBOX_E2E_P99_MS) expect(shownAfter).toBeLessThanOrEqual(Number(process.env.INBOX_E2E_P99_MS));
    await ana.page.getByTestId('my-status').getByText('Desconectada').waitFor();
    await deliverFrom(phone(8), 'nadie me atiende');
    await queued.first().waitFor();
    const stuck = await queued.first().getAttribute('data-chat-id');
    await queued.first().getByLabel('Sacar de la cola hacia').selectOption(bea.email);
    await queued.first().getByRole('button', { name: 'Forzar asignación' }).click();
    await page.getByTestId('queues-section').getByText(`${bea.email} has no free capacity`).waitFor();
    await queued.first().getByLabel('Sacar de la cola hacia').selectOption(ana.email);
    await queued.first().getByRole('button', { name: 'Forzar asignación' }).click();
    await page.getByTestId('queues-section').getByTestId('empty-state').waitFor();
    expect((await admin.get<{ owner: string | null }>(`/v1/engagement/chat/${stuck}`)).body.owner).toBe(ana.email);
    await waitLoad(ana.email, '4 / 10');

    // Exports: ten earlier ones, then one from the page; the list pages through all eleven.
    for (let i = 0; i < 10; i++) {
      const res = await admin.postJson('/v1/engagement/chat/export', {
        language: 'en',
        export_type: 'all_chats',
        export_format: 'tsv',
        time_range_start_date: new Date().toISOString().slice(0, 7),
        time_range_end_date: new Date().toISOString().slice(0, 7),
        name: `lote ${i}`,
      });
      expect(res.status).toBe(201);
    }
    const exportsSection = page.getByTestId('exports-section');
    await exportsSection.getByLabel('Nombre').fill('Chats del mes');
    await exportsSection.getByRole('button', { name: 'Solicitar exportación' }).click();
    const row = exportsSection.getByTestId('exports').locator('tr', { hasText: 'Chats del mes' });
    await row.getByTestId('export-status').getByText('Lista').waitFor({ timeout: 30_000 });
    await screenshot(page, 'inbox-manage');
    expect(await axeViolations(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('download').click()]);
    const tsv = await readFile(await download.path(), 'utf8');
    const [header, ...lines] = tsv.trim().split('\n');
    expect(header.split('\t').slice(0, 3)).toEqual(['id_chat', 'linea', 'telefono_contacto']);
    expect(lines.some((l) => l.includes(textOf(1)))).toBe(true);
    expect(lines.some((l) => l.includes('nadie me atiende'))).toBe(true);
    // Eleven exports, ten a page: the oldest is on the second page.
    await expect(exportsSection.getByTestId('exports').locator('tbody tr').count()).resolves.toBe(10);
    await exportsSection.getByTestId('next-page').click();
    await exportsSection.getByTestId('exports').getByText('lote 0').waitFor();
    await expect(exportsSection.getByTestId('exports').locator('tbody tr').count()).resolves.toBe(1);

    // The same page in English, axe-clean.
    await page.selectOption('#language', 'en');
    await page.getByRole('heading', { name: 'Inbox management' }).waitFor();
    await page.getByRole('heading', { name: 'Agents: load and capacity' }).waitFor();
    await page.getByLabel('Strategy').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
