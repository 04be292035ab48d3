import { ENGAGEMENT_AGENT, ENGAGEMENT_READ } from '@kyc/contracts';
import { foregroundLoad } from '@kyc/platform';
import { ApiClient, createRoleUser, eventually, mintKey, TestTenant } from '@kyc/testing';

import { InboxEventStore } from '../../src/inbox-feed/inbox-event.store';
import { ConnectedTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';
import { SseClient } from './support/sse-client';
import { chatOf, userWrites } from './support/workspace-helpers';

interface Agent {
  email: string;
  key: string;
  api: ApiClient;
}

const texts = (c: SseClient) => c.of('message.received').map((e) => e.data.activity.text as string);

describe('agent inbox push channel (GET /v1/engagement/inbox/events): scoping, resume, refusals', () => {
  const stack = useEngagementStack({ consumerGroup: 'account-inbox-push' });
  let a: { tenant: TestTenant; t: ConnectedTenant };
  let b: { tenant: TestTenant; t: ConnectedTenant };
  let ana: Agent;
  let bea: Agent;
  const channels: SseClient[] = [];

  const channel = (key: string) => {
    const c = new SseClient(`${stack.engagement.url}/v1/engagement/inbox/events`, { 'service-api-key': key });
    channels.push(c);
    return c;
  };
  /** Each open past its hello: ready to receive. */
  const opened = async (cs: SseClient[]) => {
    for (const c of cs) {
      expect(await c.open()).toBe(200);
      await c.waitFor((ev) => ev.some((e) => e.event === 'hello'));
    }
  };
  /** The channels of ana, bea, tenant A's manager and tenant B's manager, open. */
  const openFour = async () => {
    const four = {
      anaCh: channel(ana.key),
      beaCh: channel(bea.key),
      managerA: channel(a.tenant.apiKey),
      managerB: channel(b.tenant.apiKey),
    };
    await opened(Object.values(four));
    return four;
  };
  const status = (p: Agent, s: 'online' | 'offline') =>
    p.api.postJson('/v1/engagement/agent/status', { username: p.email, status: s });

  beforeAll(async () => {
    [a, b] = await Promise.all([stack.connectedTenant(), stack.connectedTenant()]);
    const agent = async (name: string): Promise<Agent> => {
      const admin = new ApiClient(stack.account.url, a.tenant.apiKey);
      if (name === 'ana') {
        const u = await createRoleUser(
          stack.account.url,
          a.tenant,
          { name: 'desk_agent', permissions: [ENGAGEMENT_AGENT, ENGAGEMENT_READ] },
          [stack.engagement.url],
        );
        const api = new ApiClient(stack.engagement.url, u.apiKey);
        const me = await api.get<{ username: string }>('/v1/auth/whoami');
        return { email: me.body.username.toLowerCase(), key: u.apiKey, api };
      }
      const email = `${name}@${a.tenant.tenantId}.test`;
      const created = await admin.postJson<{ user: { user_id: string } }>('/v1/account/users', {
        email,
        role: 'desk_agent',
      });
      const key = mintKey({ tenant_id: a.tenant.tenantId, sub: created.body.user.user_id, ver: 1 });
      const api = new ApiClient(stack.engagement.url, key);
      await eventually(async () => expect((await api.get('/v1/auth/whoami')).status).toBe(200));
      return { email: email.toLowerCase(), key, api };
    };
    ana = await agent('ana');
    bea = await agent('bea');
  });

  afterAll(() => channels.forEach((c) => c.close()));

  it('an agent receives her chats and the queued ones, never another agent’s chats nor another tenant’s events', async () => {
    const { anaCh, beaCh, managerA, managerB } = await openFour();

    // A chat for ana, then one for bea, then tenant B's user writes.
    expect((await status(ana, 'online')).status).toBe(200);
    await userWrites(stack.sandbox, a.t, '573007770001', 'para ana', 'Uno');
    await chatOf(a.t.api, '+573007770001', (c) => c.owner === ana.email);
    expect((await status(ana, 'offline')).status).toBe(200);
    expect((await status(bea, 'online')).status).toBe(200);
    await userWrites(stack.sandbox, a.t, '573007770002', 'para bea', 'Dos');
    await chatOf(a.t.api, '+573007770002', (c) => c.owner === bea.email);
    expect((await status(bea, 'offline')).status).toBe(200);
    await userWrites(stack.sandbox, b.t, '573007770003', 'secreto de B', 'Tres');
    await managerB.waitFor((ev) => ev.some((e) => e.data?.activity?.text === 'secreto de B'));
    // Last, a chat nobody takes (everyone offline): queued, so every agent of A sees it; the feed is
    // in order, so once it arrived every earlier event was decided for each channel.
    await userWrites(stack.sandbox, a.t, '573007770004', 'en cola', 'Cuatro');
    for (const c of [anaCh, beaCh, managerA]) await c.waitFor(() => texts(c).includes('en cola'));

    expect(texts(anaCh)).toEqual(['para ana', 'en cola']);
    expect(texts(beaCh)).toEqual(['para bea', 'en cola']);
    expect(texts(managerA)).toEqual(['para ana', 'para bea', 'en cola']);
    expect(texts(managerB)).toEqual(['secreto de B']);
    // Nothing of another tenant or another agent's chat on any channel, whatever its type.
    const chatsOf = (c: SseClient) => new Set(c.events.filter((e) => e.data?.chat_id).map((e) => e.data.chat_id));
    const beaChat = (await chatOf(a.t.api, '+573007770002')).chat_id;
    expect(chatsOf(anaCh).has(beaChat)).toBe(false);
    for (const c of [anaCh, beaCh, managerA])
      expect(c.events.every((e) => !JSON.stringify(e.data).includes('secreto de B'))).toBe(true);
    expect(anaCh.of('chat.assigned').map((e) => e.data.owner)).toEqual([ana.email]);
    // Ids grow strictly on every channel.
    for (const c of channels) {
      const ids = c.events.filter((e) => e.event !== 'hello').map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('open push channels are no load the job queues yield to: a user message still reaches them at once', async () => {
    const open = Array.from({ length: 10 }, () => channel(a.tenant.apiKey));
    await opened(open);
    // Ten idle streams, more than JOBS_YIELD_AT (8): counted as requests in flight, they kept the
    // process busy for good and every yielding queue at one job a poll.
    expect(foregroundLoad.yieldAt).toBeGreaterThan(0);
    expect(foregroundLoad.yieldAt).toBeLessThanOrEqual(open.length);
    await eventually(async () => expect(foregroundLoad.busy).toBe(false));
    await userWrites(stack.sandbox, a.t, '573007770020', 'con diez canales', 'Veinte');
    for (const c of open) await c.waitFor(() => texts(c).includes('con diez canales'));
    for (const c of open) c.close();
  });

  it('resumes after a dropped connection with Last-Event-ID: the missed events once, none repeated', async () => {
    const first = channel(a.tenant.apiKey);
    expect(await first.open()).toBe(200);
    await first.waitFor((ev) => ev.some((e) => e.event === 'hello'));
    await userWrites(stack.sandbox, a.t, '573007770010', 'antes del corte', 'Diez');
    await first.waitFor(() => texts(first).includes('antes del corte'));
    const resumeAt = first.lastEventId!;
    first.close();
    // While disconnected.
    for (let i = 1; i <= 5; i++) await userWrites(stack.sandbox, a.t, '573007770010', `perdido ${i}`, 'Diez');
    await eventually(async () => {
      const chat = await chatOf(a.t.api, '+573007770010');
      const acts = await a.t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?activity_type=message`);
      expect(acts.body.activities).toHaveLength(6);
    });
    const again = channel(a.tenant.apiKey);
    expect(await again.open(resumeAt)).toBe(200);
    await userWrites(stack.sandbox, a.t, '573007770010', 'después', 'Diez');
    // Six messages: the last one missed may reach the feed after the one sent once reconnected.
    await again.waitFor(() => texts(again).length >= 6);
    expect(again.events[0]).toMatchObject({ event: 'hello', id: resumeAt, data: { resumed: true } });
    // The provider's webhooks of quick messages may be processed in any order: each once, none lost.
    expect([...texts(again)].sort()).toEqual([
      'después',
      'perdido 1',
      'perdido 2',
      'perdido 3',
      'perdido 4',
      'perdido 5',
    ]);
    expect(texts(again)).not.toContain('antes del corte');
  });

  it('an id outside the replay window gets a reset; a malformed one a 400 in the envelope; no key a 401', async () => {
    const ahead = channel(a.tenant.apiKey);
    expect(await ahead.open('999999999999')).toBe(200);
    await ahead.waitFor((ev) => ev.some((e) => e.event === 'reset'));

    const bad = channel(a.tenant.apiKey);
    expect(await bad.open('abc')).toBe(400);
    expect(bad.body).toMatchObject({ code: 400, fields: [expect.objectContaining({ field: 'Last-Event-ID' })] });

    const anonymous = new SseClient(`${stack.engagement.url}/v1/engagement/inbox/events`, {});
    expect(await anonymous.open()).toBe(401);
  });

  it('an agent going offline reaches the tenant’s managers and herself as `agent.status`, never another agent nor another tenant', async () => {
    const { anaCh, beaCh, managerA, managerB } = await openFour();
    const statusOf = (c: SseClient, who: Agent) => c.of('agent.status').filter((e) => e.data.username === who.email);

    // Ana online, then offline (herself); bea online (set by a manager), then offline (herself).
    expect((await status(ana, 'online')).status).toBe(200);
    expect((await status(ana, 'offline')).status).toBe(200);
    // Setting the status she already has changes nothing: no event.
    expect((await status(ana, 'offline')).status).toBe(200);
    const manager = new ApiClient(stack.engagement.url, a.tenant.apiKey);
    expect(
      (await manager.postJson('/v1/engagement/agent/status', { username: bea.email, status: 'online' })).status,
    ).toBe(200);
    expect((await status(bea, 'offline')).status).toBe(200);

    // Each agent's changes are in order; the two agents' are events of different keys, whose order
    // the feed does not promise (its consumer reads the topic's partitions side by side).
    await managerA.waitFor(() => managerA.of('agent.status').length >= 4);
    await anaCh.waitFor(() => statusOf(anaCh, ana).length >= 2);
    await beaCh.waitFor(() => statusOf(beaCh, bea).length >= 2);
    // Then events every channel of A sees (a queued chat: everyone is offline) and B's manager sees
    // (a chat of B): what a channel must not see would have come by then.
    await userWrites(stack.sandbox, a.t, '573007770030', 'centinela de A', 'Treinta');
    await userWrites(stack.sandbox, b.t, '573007770031', 'centinela de B', 'Treinta y uno');
    for (const c of [anaCh, beaCh, managerA]) await c.waitFor(() => texts(c).includes('centinela de A'));
    await managerB.waitFor(() => texts(managerB).includes('centinela de B'));

    const changes = (c: SseClient, who: Agent) =>
      statusOf(c, who).map((e) => `${e.data.previous_status}→${e.data.status}`);
    expect(changes(managerA, ana)).toEqual(['offline→online', 'online→offline']);
    expect(changes(managerA, bea)).toEqual(['offline→online', 'online→offline']);
    expect(statusOf(managerA, ana)[1].data).toEqual({
      username: ana.email,
      user_id: expect.any(String),
      status: 'offline',
      previous_status: 'online',
      groups: [],
      previous_groups: [],
      capacity: expect.any(Number),
      active_chats: expect.any(Number),
      changed_by: 'self',
      changed_at: expect.any(String),
      at: expect.any(String),
    });
    expect(statusOf(managerA, bea).map((e) => e.data.changed_by)).toEqual(['manager', 'self']);
    // Each agent sees her own changes only; another tenant's manager none.
    expect(changes(anaCh, ana)).toEqual(['offline→online', 'online→offline']);
    expect(anaCh.of('agent.status').every((e) => e.data.username === ana.email)).toBe(true);
    expect(changes(beaCh, bea)).toEqual(['offline→online', 'online→offline']);
    expect(beaCh.of('agent.status').every((e) => e.data.username === bea.email)).toBe(true);
    expect(managerB.of('agent.status')).toEqual([]);
    expect(managerB.events.every((e) => !JSON.stringify(e.data).includes(a.tenant.tenantId))).toBe(true);

    // A resumed channel replays them in order with the chats' events (one seq order).
    const resumed = channel(a.tenant.apiKey);
    expect(await resumed.open(managerA.events[0].id)).toBe(200);
    await resumed.waitFor(() => texts(resumed).includes('centinela de A'));
    const upToSentinel = (c: SseClient) => {
      const events = c.events.filter((e) => e.event !== 'hello');
      const end = events.findIndex((e) => e.data?.activity?.text === 'centinela de A');
      return events.slice(0, end + 1).map((e) => `${e.id}:${e.event}`);
    };
    expect(upToSentinel(resumed)).toEqual(upToSentinel(managerA));
    expect(upToSentinel(resumed).filter((x) => x.endsWith(':agent.status'))).toHaveLength(4);
  });

  it('a manager’s capacity change reaches the managers and the agent it names as `agent.capacity`; the tenant’s default only the managers', async () => {
    const { anaCh, beaCh, managerA, managerB } = await openFour();
    const manager = new ApiClient(stack.engagement.url, a.tenant.apiKey);
    const capacities = (body: object) => manager.postJson('/v1/engagement/agent/capacities', body);
    expect((await capacities({ update_type: 'user', capacity: 7, targets: [ana.email] })).status).toBe(200);
    expect((await capacities({ update_type: 'default', capacity: 4 })).status).toBe(200);
    // The same default again changes nothing: no event.
    expect((await capacities({ update_type: 'default', capacity: 4 })).status).toBe(200);
    // The two changes are events of different keys (the agent, the tenant): the feed does not promise
    // their order (its consumer reads the topic's partitions side by side).
    await managerA.waitFor(() => managerA.of('agent.capacity').length >= 2);
    await anaCh.waitFor(() => anaCh.of('agent.capacity').length >= 1);
    // Then events every channel of A sees (a queued chat) and B's manager sees (a chat of B).
    await userWrites(stack.sandbox, a.t, '573007770032', 'segundo centinela de A', 'Treinta y dos');
    await userWrites(stack.sandbox, b.t, '573007770033', 'segundo centinela de B', 'Treinta y tres');
    for (const c of [anaCh, beaCh, managerA]) await c.waitFor(() => texts(c).includes('segundo centinela de A'));
    await managerB.waitFor(() => texts(managerB).includes('segundo centinela de B'));

    const changes = (c: SseClient) =>
      c.of('agent.capacity').map((e) => [e.data.update_type, e.data.username ?? null, e.data.own_capacity ?? null]);
    expect(changes(managerA)).toHaveLength(2);
    expect(changes(managerA)).toEqual(
      expect.arrayContaining([
        ['user', ana.email, 7],
        ['default', null, null],
      ]),
    );
    const ofType = (type: string) => managerA.of('agent.capacity').find((e) => e.data.update_type === type)!;
    expect(ofType('user').data).toMatchObject({
      previous_own_capacity: null,
      capacity: 7,
      active_chats: expect.any(Number),
      status: 'offline',
      default_capacity: 5,
      capacity_enabled: true,
    });
    expect(ofType('default').data).toMatchObject({ default_capacity: 4, capacity_enabled: true });
    expect(changes(anaCh)).toEqual([['user', ana.email, 7]]);
    expect(changes(beaCh)).toEqual([]);
    expect(changes(managerB)).toEqual([]);
  });

  it('reads the feed in seq order across a power of ten (a batch 95…105 was sorted as text: 100…105, 95…99)', async () => {
    const store = stack.engagement.app.get(InboxEventStore);
    const { head } = await store.bounds();
    // One batch of rows crossing the next power of ten (of another tenant: no channel sees them).
    const n = 10 ** String(head + 1).length - head + 5;
    await store.append(
      Array.from({ length: n }, (_, i) => ({
        event_id: `order-${head}-${i}`,
        tenant_id: 't-order',
        chat_id: `CHT-order-${i}`,
        owner: null,
        previous_owner: null,
        type: 'chat.opened' as const,
        data: {},
        created_at: new Date(),
      })),
    );
    // Only this batch's rows: the suite's own events may still be reaching the feed meanwhile.
    const seqs = (await store.after(head, 1000)).filter((r) => r.tenant_id === 't-order').map((r) => Number(r.seq));
    expect(seqs).toHaveLength(n);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  });
});
