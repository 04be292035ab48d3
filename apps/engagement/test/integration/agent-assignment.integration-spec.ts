import { ApiClient, createTenant, db, eventually, TestTenant } from '@kyc/testing';

import { ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';
import { addAgent, chatOf, putJson, TestAgent, userWrites } from './support/workspace-helpers';

/** Per agent: the counter the service keeps and the open chats it really owns. */
async function loads(tenantId: string) {
  const { rows } = await db().query(
    `SELECT a.email, a.active_chats, COALESCE(a.capacity, 5) AS capacity,
            (SELECT count(*)::int FROM engagement.chats c
              WHERE c.tenant_id = a.tenant_id AND c.owner = a.email AND c.status = 'open') AS owned
       FROM engagement.agents a WHERE a.tenant_id = $1 ORDER BY a.email`,
    [tenantId],
  );
  return rows as { email: string; active_chats: number; capacity: number; owned: number }[];
}

const enqueued = async (api: ApiClient) =>
  (await api.get('/v1/engagement/chat/search?only_enqueued=true&limit=100')).body.chats as any[];

describe('agent workspace: assignment by ruleset, capacities, force-dequeue, concurrency', () => {
  const stack = useEngagementStack({ consumerGroup: 'account-assignment-spec' });

  async function workspace(agentCount: number) {
    const tenant: TestTenant = await createTenant(stack.account.url, [stack.engagement.url]);
    const t: ConnectedTenant = await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), stack.sandbox);
    const agents: TestAgent[] = [];
    for (let i = 0; i < agentCount; i++)
      agents.push(await addAgent(stack.account.url, stack.engagement.url, tenant, `agent${i}`));
    return { tenant, t, agents };
  }

  let phoneSeq = 0;
  const nextPhone = () => `5730055${String(++phoneSeq).padStart(5, '0')}`;

  it('chats opening at once all reach the online agents with room, none stays queued', async () => {
    const { tenant, t, agents } = await workspace(2);
    expect(
      (await t.api.postJson('/v1/engagement/agent/capacities', { update_type: 'default', capacity: 10 })).status,
    ).toBe(200);
    for (const a of agents)
      expect(
        (await a.api.postJson('/v1/engagement/agent/status', { username: a.email, status: 'online' })).status,
      ).toBe(200);
    const phones = Array.from({ length: 16 }, nextPhone);
    // Sixteen conversations open at once: their assigners contend for the same two agents' rows.
    await Promise.all(phones.map((p) => userWrites(stack.sandbox, t, p, 'hola')));
    await eventually(
      async () => {
        const open = (await t.api.get('/v1/engagement/chat/search?status=open&limit=100')).body.chats as any[];
        expect(open.filter((c) => phones.includes(c.contact.phone.slice(1)))).toHaveLength(16);
        expect(open.filter((c) => c.owner === null)).toEqual([]);
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const perAgent = await loads(tenant.tenantId);
    expect(perAgent.map((a) => a.owned).reduce((x, y) => x + y, 0)).toBe(16);
    for (const a of perAgent) expect(a.active_chats).toBe(a.owned);
  });

  it('parallel assignment never gives a chat to two agents nor puts an agent over capacity', async () => {
    const { tenant, t, agents } = await workspace(3);
    const capacities = await t.api.postJson('/v1/engagement/agent/capacities', {
      update_type: 'user',
      capacity: 2,
      targets: agents.map((a) => a.email),
    });
    expect(capacities.status).toBe(200);
    const phones = Array.from({ length: 12 }, nextPhone);
    await Promise.all(phones.map((p) => userWrites(stack.sandbox, t, p, 'hola')));
    await eventually(async () => expect(await enqueued(t.api)).toHaveLength(12), { timeoutMs: 20_000 });
    const chats = await enqueued(t.api);

    // Everyone at once: agents coming online (each three times) and six force-dequeues to agent 0.
    const results = await Promise.all([
      ...agents.flatMap((a) =>
        [1, 2, 3].map(() => t.api.postJson('/v1/engagement/agent/status', { username: a.email, status: 'online' })),
      ),
      ...chats.slice(0, 6).map((c) =>
        t.api.postJson(`/v1/engagement/chat/${c.chat_id}/force-dequeue`, {
          assignment_type: 'specific_agent',
          target: agents[0].email,
        }),
      ),
    ]);
    for (const r of results) expect([200, 409]).toContain(r.status);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error_code).toBe('agent_at_capacity');

    // Counters match the chats owned, nobody over capacity, and the expected split between owned and queued. A
    // chat that found every free agent held by another assigner is handed on by a retry a moment later: awaited.
    const settlesAt = (owned: number, queued: number) =>
      eventually(
        async () => {
          const now = await loads(tenant.tenantId);
          for (const a of now) {
            expect(a.active_chats).toBe(a.owned);
            expect(a.owned).toBeLessThanOrEqual(2);
          }
          expect(now.reduce((n, a) => n + a.owned, 0)).toBe(owned);
          expect(await enqueued(t.api)).toHaveLength(queued);
        },
        { timeoutMs: 10_000, intervalMs: 100 },
      );
    await settlesAt(6, 6);
    // Every assignment event names the owner the chat has (or had before a force-dequeue moved it).
    const { rows } = await db().query(
      `SELECT count(*)::int AS n FROM engagement.chats WHERE tenant_id = $1 AND owner IS NOT NULL AND status = 'open'`,
      [tenant.tenantId],
    );
    expect(rows[0].n).toBe(6);

    // Closing in parallel frees capacity and the queue moves on: still nobody over capacity.
    const owned = (await t.api.get('/v1/engagement/chat/search?status=open&limit=100')).body.chats.filter(
      (c: any) => c.owner,
    );
    const closes = await Promise.all(
      owned.map((c: any) => putJson(t.api, `/v1/engagement/chat/agent/${c.chat_id}`, { status: 'closed' })),
    );
    for (const r of closes) expect(r.status).toBe(200);
    await settlesAt(6, 0);
  });

  it('round robin spreads chats over online agents; least busy gives the next one to the agent with fewest', async () => {
    const { t, agents } = await workspace(3);
    expect((await t.api.get('/v1/engagement/agent/assignment-rulesets/default')).body).toMatchObject({
      ruleset_id: 'default',
      strategy: 'round_robin',
      capacity_enabled: true,
      default_capacity: 5,
    });
    for (const a of agents)
      await t.api.postJson('/v1/engagement/agent/status', { username: a.email, status: 'online' });
    const first: any[] = [];
    for (let i = 0; i < 6; i++) {
      const phone = nextPhone();
      await userWrites(stack.sandbox, t, phone, 'hola');
      first.push(await chatOf(t.api, `+${phone}`, (c) => c.owner !== null));
    }
    const per = (list: any[]) => agents.map((a) => list.filter((c) => c.owner === a.email).length);
    expect(per(first)).toEqual([2, 2, 2]);
    // Round robin: the agents in turn.
    expect(
      first
        .slice(0, 3)
        .map((c) => c.owner)
        .sort(),
    ).toEqual(agents.map((a) => a.email).sort());

    const changed = await putJson(t.api, '/v1/engagement/agent/assignment-rulesets/default', {
      strategy: 'least_busy',
    });
    expect(changed.body.strategy).toBe('least_busy');
    const busyless = agents[1].email;
    for (const c of first.filter((x) => x.owner === busyless))
      await putJson(t.api, `/v1/engagement/chat/agent/${c.chat_id}`, { status: 'closed' });
    const next: any[] = [];
    for (let i = 0; i < 2; i++) {
      const phone = nextPhone();
      await userWrites(stack.sandbox, t, phone, 'hola');
      next.push(await chatOf(t.api, `+${phone}`, (c) => c.owner !== null));
    }
    expect(next.map((c) => c.owner)).toEqual([busyless, busyless]);
  });

  it('an offline agent gets nothing; a chat waits until an agent comes online; groups restrict the queues', async () => {
    const { t, agents } = await workspace(2);
    const phone = nextPhone();
    await userWrites(stack.sandbox, t, phone, 'hola');
    const waiting = await chatOf(t.api, `+${phone}`);
    expect(waiting).toMatchObject({ owner: null, enqueued: true });
    // Agent 0 serves another line only: it does not take this chat.
    await t.api.postJson('/v1/engagement/agent/status', {
      username: agents[0].email,
      status: 'online',
      groups: ['+570000000000'],
    });
    expect((await t.api.get(`/v1/engagement/chat/${waiting.chat_id}`)).body.owner).toBeNull();
    await t.api.postJson('/v1/engagement/agent/status', {
      username: agents[1].email,
      status: 'online',
      groups: [t.line],
    });
    expect((await t.api.get(`/v1/engagement/chat/${waiting.chat_id}`)).body.owner).toBe(agents[1].email);
    const counters = await t.api.get('/v1/engagement/agent/groups/counters');
    expect(counters.body.groups).toEqual(
      expect.arrayContaining([
        { group: t.line, agents_online: 1, agents_offline: 0, chats_enqueued: 0, chats_assigned: 1 },
        { group: '+570000000000', agents_online: 1, agents_offline: 0, chats_enqueued: 0, chats_assigned: 0 },
      ]),
    );
    expect(counters.body.total).toEqual({ agents_online: 2, agents_offline: 0, chats_enqueued: 0, chats_assigned: 1 });
    const online = await t.api.get(`/v1/engagement/agent/status?status=online&groups=${encodeURIComponent(t.line)}`);
    expect(online.body.agents.map((a: any) => a.username)).toEqual([agents[1].email]);
  });

  it('capacity 0 and toggle_capacity: limits on stop assignment, off lets agents take any number', async () => {
    const { t, agents } = await workspace(1);
    await t.api.postJson('/v1/engagement/agent/capacities', { update_type: 'default', capacity: 0 });
    await t.api.postJson('/v1/engagement/agent/status', { username: agents[0].email, status: 'online' });
    const phone = nextPhone();
    await userWrites(stack.sandbox, t, phone, 'hola');
    const chat = await chatOf(t.api, `+${phone}`);
    expect(chat.owner).toBeNull();
    const forced = await t.api.postJson(`/v1/engagement/chat/${chat.chat_id}/force-dequeue`, {
      assignment_type: 'specific_agent',
      target: agents[0].email,
    });
    expect(forced.status).toBe(409);
    expect(forced.body.error_code).toBe('agent_at_capacity');
    const toggled = await t.api.postJson('/v1/engagement/agent/capacities', { update_type: 'toggle_capacity' });
    expect(toggled.body).toMatchObject({ capacity_enabled: false, default_capacity: 0 });
    expect((await t.api.get(`/v1/engagement/chat/${chat.chat_id}`)).body.owner).toBe(agents[0].email);
    const back = await t.api.postJson('/v1/engagement/agent/capacities', { update_type: 'toggle_capacity' });
    expect(back.body.capacity_enabled).toBe(true);
  });
});
