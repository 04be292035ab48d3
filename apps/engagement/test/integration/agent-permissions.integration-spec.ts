import {
  ENGAGEMENT_AGENT,
  ENGAGEMENT_EXPORT,
  ENGAGEMENT_MANAGE,
  ENGAGEMENT_READ,
  FULL_ACCESS_ROLE,
} from '@kyc/contracts';
import {
  ApiClient,
  createRoleUser,
  createTenant,
  db,
  eventually,
  mintKey,
  RunningService,
  SandboxMessaging,
  TestTenant,
} from '@kyc/testing';

import { ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';
import { chatOf, putJson, userWrites } from './support/workspace-helpers';

interface Person {
  email: string;
  api: ApiClient;
}

describe('agent workspace permissions: who may read, act on a chat, manage agents and export', () => {
  const stack = useEngagementStack({ consumerGroup: 'account-agent-permissions' });
  let account: RunningService;
  let engagement: RunningService;
  let sandbox: SandboxMessaging;
  let tenant: TestTenant;
  let t: ConnectedTenant;
  let ana: Person; // an agent (engagement.chats.agent only)
  let bruno: Person; // another agent
  let lead: Person; // a team lead (engagement.agents.manage only)
  let reader: Person; // engagement.chats.read only
  let auditor: Person; // engagement.chats.export only
  let outsider: Person; // a user of the account without any engagement permission
  let anaChat: any;
  let brunoChat: any;
  let queued: any;

  /** A user of `role` (created with the role if it does not exist yet), known to engagement. */
  async function person(role: string, permissions: string[]): Promise<Person> {
    const user = await createRoleUser(account.url, tenant, { name: role, permissions }, [engagement.url]);
    const api = new ApiClient(engagement.url, user.apiKey);
    const me = await api.get<{ username: string }>('/v1/auth/whoami');
    return { email: me.body.username.toLowerCase(), api };
  }

  /** A second user of an existing role. */
  async function colleague(role: string, name: string): Promise<Person> {
    const admin = new ApiClient(account.url, tenant.apiKey);
    const email = `${name}@${tenant.tenantId}.test`;
    const created = await admin.postJson<{ user: { user_id: string } }>('/v1/account/users', { email, role });
    expect([200, 201]).toContain(created.status);
    const api = new ApiClient(
      engagement.url,
      mintKey({ tenant_id: tenant.tenantId, sub: created.body.user.user_id, ver: 1 }),
    );
    await eventually(async () => expect((await api.get('/v1/auth/whoami')).status).toBe(200));
    return { email, api };
  }

  const status = (p: Person, username: string, s: 'online' | 'offline') =>
    p.api.postJson('/v1/engagement/agent/status', { username, status: s });
  const getChat = async (id: string) => (await t.api.get(`/v1/engagement/chat/${id}`)).body;
  const activityCount = async (id: string) =>
    Number(
      (await db().query(`SELECT count(*)::int AS n FROM engagement.chat_activities WHERE chat_id = $1`, [id])).rows[0]
        .n,
    );
  const agentRow = async (email: string) =>
    (
      await db().query(`SELECT status, capacity FROM engagement.agents WHERE tenant_id = $1 AND email = $2`, [
        tenant.tenantId,
        email,
      ])
    ).rows[0];

  const expectForbidden = (res: { status: number; body: any }, errorCode = 'forbidden') => {
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 403, status: 'Forbidden', error_code: errorCode });
    expect(typeof res.body.message).toBe('string');
  };

  beforeAll(async () => {
    ({ account, engagement, sandbox } = stack);
    tenant = await createTenant(account.url, [engagement.url]);
    t = await connectTenant(new ApiClient(engagement.url, tenant.apiKey), sandbox);
    ana = await person('desk_agent', [ENGAGEMENT_AGENT]);
    bruno = await colleague('desk_agent', 'bruno');
    lead = await person('team_lead', [ENGAGEMENT_MANAGE]);
    reader = await person('supervisor', [ENGAGEMENT_READ]);
    auditor = await person('auditor', [ENGAGEMENT_EXPORT]);
    outsider = await person('checker', ['checks.behavior']);

    // Each agent goes online on its own key and gets one chat; a third chat waits in the queue.
    expect((await status(ana, ana.email, 'online')).status).toBe(200);
    await userWrites(sandbox, t, '573008880001', 'necesito ayuda', 'Carla Ortiz');
    anaChat = await chatOf(t.api, '+573008880001', (c) => c.owner === ana.email);
    expect((await status(ana, ana.email, 'offline')).status).toBe(200);
    expect((await status(bruno, bruno.email, 'online')).status).toBe(200);
    await userWrites(sandbox, t, '573008880002', 'hola', 'Diego Rojas');
    brunoChat = await chatOf(t.api, '+573008880002', (c) => c.owner === bruno.email);
    expect((await status(bruno, bruno.email, 'offline')).status).toBe(200);
    await userWrites(sandbox, t, '573008880003', 'buenas', 'Elena Vega');
    queued = await chatOf(t.api, '+573008880003');
    expect(queued.owner).toBeNull();
  });

  it('read-your-writes: a user created in account is an agent at once, and its own key works at once (no 404, no 401)', async () => {
    const admin = new ApiClient(account.url, tenant.apiKey);
    const email = `fresh-${Date.now()}@${tenant.tenantId}.test`;
    const created = await admin.postJson<{ user: { user_id: string } }>('/v1/account/users', {
      email,
      role: FULL_ACCESS_ROLE,
    });
    expect(created.status).toBe(201);
    // Right after the create: engagement's access cache has not folded the user yet; it asks once.
    // (offline: an online agent would take the chats the other tests route.)
    const set = await t.api.postJson('/v1/engagement/agent/status', { username: email, status: 'offline' });
    expect([set.status, set.body.error_code]).toEqual([200, undefined]);
    const own = await new ApiClient(
      engagement.url,
      mintKey({ tenant_id: tenant.tenantId, sub: created.body.user.user_id, ver: 1 }),
    ).get('/v1/auth/whoami');
    expect([own.status, own.body.username]).toEqual([200, email]);
    // An e-mail no one created is still refused (after the bounded wait), with its code.
    const ghost = await t.api.postJson('/v1/engagement/agent/status', {
      username: `ghost-${Date.now()}@${tenant.tenantId}.test`,
      status: 'offline',
    });
    expect([ghost.status, ghost.body.error_code]).toEqual([404, 'unknown_user']);
  });

  it('a key without any engagement permission gets 403 on every workspace route and changes nothing', async () => {
    const api = outsider.api;
    const before = { chat: await getChat(anaChat.chat_id), acts: await activityCount(anaChat.chat_id) };
    const sent = sandbox.messages().length;
    const calls = [
      api.get('/v1/engagement/chat/search'),
      api.get(`/v1/engagement/chat/${anaChat.chat_id}`),
      api.get(`/v1/engagement/chat/${anaChat.chat_id}/activities`),
      api.postJson(`/v1/engagement/chat/${anaChat.chat_id}/send`, { text: 'hola' }),
      api.postJson(`/v1/engagement/chat/${anaChat.chat_id}/notes`, { text: 'nota' }),
      api.postJson(`/v1/engagement/chat/${queued.chat_id}/force-dequeue`, {
        assignment_type: 'specific_agent',
        target: ana.email,
      }),
      putJson(api, `/v1/engagement/chat/agent/${anaChat.chat_id}`, { status: 'closed' }),
      status(outsider, ana.email, 'online'),
      api.get('/v1/engagement/agent/status'),
      api.postJson('/v1/engagement/agent/capacities', { update_type: 'user', capacity: 9, targets: [ana.email] }),
      api.get('/v1/engagement/agent/groups/counters'),
      api.get('/v1/engagement/agent/assignment-rulesets/default'),
      putJson(api, '/v1/engagement/agent/assignment-rulesets/default', { strategy: 'least_busy' }),
      api.get('/v1/engagement/agent/templates'),
      api.postJson('/v1/engagement/agent/templates', { template_name: 'x', template_type: 'text', content: 'x' }),
      api.get('/v1/engagement/channels'),
      api.get('/v1/engagement/calling/ice-servers'),
      api.get('/v1/engagement/chat/export'),
      api.postJson('/v1/engagement/chat/export', {
        export_type: 'all_chats',
        export_format: 'tsv',
        language: 'en',
        time_range_start_date: '2026-01',
        time_range_end_date: '2026-02',
      }),
    ];
    for (const res of await Promise.all(calls)) expectForbidden(res);
    expect(await getChat(anaChat.chat_id)).toEqual(before.chat);
    expect(await activityCount(anaChat.chat_id)).toBe(before.acts);
    expect(sandbox.messages()).toHaveLength(sent);
    expect(await agentRow(ana.email)).toEqual({ status: 'offline', capacity: null });
    expect((await getChat(queued.chat_id)).owner).toBeNull();
    expect((await t.api.get('/v1/engagement/agent/assignment-rulesets/default')).body.strategy).toBe('round_robin');
    expect((await t.api.get('/v1/engagement/agent/templates')).body.templates).toEqual([]);
    expect((await t.api.get('/v1/engagement/chat/export')).body.exports).toEqual([]);
  });

  it('a reader reads chats, agents and counters but may not act', async () => {
    expect((await reader.api.get(`/v1/engagement/chat/${anaChat.chat_id}`)).status).toBe(200);
    expect((await reader.api.get('/v1/engagement/chat/search?status=open')).body.chats).toHaveLength(3);
    expect((await reader.api.get('/v1/engagement/agent/status')).status).toBe(200);
    expect((await reader.api.get('/v1/engagement/agent/groups/counters')).status).toBe(200);
    const acts = await activityCount(anaChat.chat_id);
    expectForbidden(await reader.api.postJson(`/v1/engagement/chat/${anaChat.chat_id}/send`, { text: 'hola' }));
    expectForbidden(await putJson(reader.api, `/v1/engagement/chat/agent/${anaChat.chat_id}`, { status: 'closed' }));
    expectForbidden(await status(reader, reader.email, 'online'));
    expectForbidden(await reader.api.get('/v1/engagement/chat/export'));
    expect(await activityCount(anaChat.chat_id)).toBe(acts);
    expect((await getChat(anaChat.chat_id)).status).toBe('open');
  });

  it("an agent may not reply to, close, tag, move or take over another agent's chat", async () => {
    const before = await getChat(anaChat.chat_id);
    const acts = await activityCount(anaChat.chat_id);
    const sent = sandbox.messages().length;
    const id = anaChat.chat_id;
    expectForbidden(
      await bruno.api.postJson(`/v1/engagement/chat/${id}/send`, { text: 'yo te ayudo' }),
      'not_chat_owner',
    );
    expectForbidden(
      await putJson(bruno.api, `/v1/engagement/chat/agent/${id}`, { status: 'closed' }),
      'not_chat_owner',
    );
    expectForbidden(await putJson(bruno.api, `/v1/engagement/chat/agent/${id}`, { tags: ['mine'] }), 'not_chat_owner');
    expectForbidden(
      await putJson(bruno.api, `/v1/engagement/chat/agent/${id}`, { owner: bruno.email }),
      'not_chat_owner',
    );
    expectForbidden(
      await bruno.api.postJson(`/v1/engagement/chat/${id}/force-dequeue`, {
        assignment_type: 'specific_agent',
        target: bruno.email,
      }),
      'not_chat_owner',
    );
    expect(await getChat(id)).toEqual(before);
    expect(await activityCount(id)).toBe(acts);
    expect(sandbox.messages()).toHaveLength(sent);
  });

  it("an agent sets only its own status; capacities, rulesets, agent templates and exports are a manager's", async () => {
    expectForbidden(await status(bruno, ana.email, 'online'), 'not_own_agent');
    expect((await agentRow(ana.email)).status).toBe('offline');
    expectForbidden(
      await bruno.api.postJson('/v1/engagement/agent/capacities', { update_type: 'default', capacity: 50 }),
    );
    expectForbidden(
      await putJson(bruno.api, '/v1/engagement/agent/assignment-rulesets/default', { strategy: 'least_busy' }),
    );
    expectForbidden(
      await bruno.api.postJson('/v1/engagement/agent/templates', {
        template_name: 'mine',
        template_type: 'text',
        content: 'x',
      }),
    );
    expectForbidden(await bruno.api.get('/v1/engagement/chat/export'));
    expect((await t.api.get('/v1/engagement/agent/assignment-rulesets/default')).body).toMatchObject({
      strategy: 'round_robin',
      default_capacity: 5,
    });
    expect((await bruno.api.get('/v1/engagement/agent/templates')).body.templates).toEqual([]);
    expect((await bruno.api.get('/v1/engagement/calling/ice-servers')).status).toBe(200);
  });

  it('an agent replies to, notes and closes its own chat; a colleague may leave a note', async () => {
    const id = anaChat.chat_id;
    const reply = await ana.api.postJson(`/v1/engagement/chat/${id}/send`, { text: 'Hola Carla, ¿en qué te ayudo?' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ actor: ana.email, actor_type: 'agent', activity_type: 'message' });
    expect(sandbox.messages().filter((m) => m.to === '573008880001')).toHaveLength(1);
    const note = await bruno.api.postJson(`/v1/engagement/chat/${id}/notes`, { text: 'es clienta VIP' });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ actor: bruno.email, activity_type: 'note' });
    const closed = await putJson(ana.api, `/v1/engagement/chat/agent/${id}`, { status: 'closed', tags: ['resuelto'] });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', owner: ana.email, tags: ['resuelto'] });
  });

  it('an agent takes an unassigned chat for itself, but may not give it to someone else', async () => {
    expectForbidden(
      await putJson(ana.api, `/v1/engagement/chat/agent/${queued.chat_id}`, { owner: bruno.email }),
      'not_chat_owner',
    );
    expect((await getChat(queued.chat_id)).owner).toBeNull();
    const taken = await ana.api.postJson(`/v1/engagement/chat/${queued.chat_id}/force-dequeue`, {
      assignment_type: 'specific_agent',
      target: ana.email,
    });
    expect(taken.status).toBe(200);
    expect(taken.body.owner).toBe(ana.email);
    // The owner hands it over to a colleague; from then on it is no longer hers to act on.
    const handed = await putJson(ana.api, `/v1/engagement/chat/agent/${queued.chat_id}`, { owner: bruno.email });
    expect(handed.status).toBe(200);
    expect(handed.body.owner).toBe(bruno.email);
    expectForbidden(
      await ana.api.postJson(`/v1/engagement/chat/${queued.chat_id}/send`, { text: 'sigo yo' }),
      'not_chat_owner',
    );
  });

  it("a manager replies to and closes another agent's chat, sets agents' status and capacities", async () => {
    const id = brunoChat.chat_id;
    const reply = await lead.api.postJson(`/v1/engagement/chat/${id}/send`, { text: 'Te atiende el supervisor' });
    expect(reply.status).toBe(201);
    expect(reply.body.actor).toBe(lead.email);
    expect(sandbox.messages().filter((m) => m.to === '573008880002')).toHaveLength(1);
    const closed = await putJson(lead.api, `/v1/engagement/chat/agent/${id}`, { status: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('closed');
    expect((await status(lead, ana.email, 'online')).status).toBe(200);
    expect((await agentRow(ana.email)).status).toBe('online');
    const caps = await lead.api.postJson('/v1/engagement/agent/capacities', {
      update_type: 'user',
      capacity: 7,
      targets: [ana.email],
    });
    expect(caps.status).toBe(200);
    expect((await agentRow(ana.email)).capacity).toBe(7);
    expect((await status(lead, ana.email, 'offline')).status).toBe(200);
  });

  it('exports need engagement.chats.export (or the manager permission)', async () => {
    const body = {
      export_type: 'all_chats',
      export_format: 'tsv',
      language: 'en',
      time_range_start_date: '2026-01',
      time_range_end_date: '2026-12',
    };
    const asked = await auditor.api.postJson('/v1/engagement/chat/export', body);
    expect([200, 201, 202]).toContain(asked.status);
    expect((await auditor.api.get('/v1/engagement/chat/export')).body.exports).toHaveLength(1);
    expectForbidden(await auditor.api.get(`/v1/engagement/chat/${anaChat.chat_id}`));
  });

  it("the tenant's admin (built-in full_access) holds every workspace permission", async () => {
    const me = (await t.api.get('/v1/auth/whoami')).body;
    expect(me.role).toBe(FULL_ACCESS_ROLE);
    expect(me.permissions).toEqual(
      expect.arrayContaining([ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, ENGAGEMENT_EXPORT]),
    );
    expect((await t.api.get(`/v1/engagement/chat/${anaChat.chat_id}`)).status).toBe(200);
  });
});
