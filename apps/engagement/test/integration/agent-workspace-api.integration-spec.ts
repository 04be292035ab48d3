import { createHmac } from 'node:crypto';

import { ApiClient, createTenant, db, TestTenant } from '@kyc/testing';

import { approvedOutbound, ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';
import { addAgent, chatOf, putJson, TestAgent, userWrites } from './support/workspace-helpers';

const TURN_SECRET = 'turn-shared-secret';

describe('agent workspace API: reads, search filters, sends, notes, templates, channels, calling', () => {
  let tenant: TestTenant;
  let t: ConnectedTenant;
  let other: ConnectedTenant;
  let agent: TestAgent;
  let chat: any;
  let closedChat: any;

  const stack = useEngagementStack({
    consumerGroup: 'account-workspace-api',
    env: {
      ENGAGEMENT_ICE_STUN_URLS: 'stun:stun.example.com:3478',
      ENGAGEMENT_ICE_TURN_URLS: 'turn:turn.example.com:3478?transport=udp, turns:turn.example.com:5349',
      ENGAGEMENT_TURN_SECRET: TURN_SECRET,
      ENGAGEMENT_TURN_TTL_S: '600',
    },
  });

  beforeAll(async () => {
    tenant = await createTenant(stack.account.url, [stack.engagement.url]);
    const b = await createTenant(stack.account.url, [stack.engagement.url]);
    t = await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), stack.sandbox);
    other = await connectTenant(new ApiClient(stack.engagement.url, b.apiKey), stack.sandbox);
    agent = await addAgent(stack.account.url, stack.engagement.url, tenant, 'lucia');
    await t.api.postJson('/v1/engagement/agent/status', { username: agent.email, status: 'online' });
    await userWrites(stack.sandbox, t, '573009990001', 'quiero cambiar mi dirección', 'Carlos Pérez');
    chat = await chatOf(t.api, '+573009990001', (c) => c.owner !== null);
    await userWrites(stack.sandbox, t, '573009990002', 'gracias', 'María Ruiz');
    closedChat = await chatOf(t.api, '+573009990002', (c) => c.owner !== null);
    await putJson(t.api, `/v1/engagement/chat/agent/${closedChat.chat_id}`, {
      status: 'closed',
      tags: ['vip', 'done'],
    });
    await t.api.postJson('/v1/engagement/agent/status', { username: agent.email, status: 'offline' });
    await userWrites(stack.sandbox, t, '573009990003', 'hola?', 'Pedro Gil');
    await chatOf(t.api, '+573009990003');
  });

  const ids = (res: any) => res.body.chats.map((c: any) => c.contact.phone).sort();
  const search = (q: string) => t.api.get(`/v1/engagement/chat/search?${q}`);

  it('reads a chat and its activities; another tenant gets 404', async () => {
    const got = await t.api.get(`/v1/engagement/chat/${chat.chat_id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ chat_id: chat.chat_id, owner: agent.email, status: 'open', channel: 'whatsapp' });
    expect((await other.api.get(`/v1/engagement/chat/${chat.chat_id}`)).status).toBe(404);
    expect((await t.api.get('/v1/engagement/chat/CHTnope')).body.error_code).toBe('chat_not_found');
    const acts = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities`);
    expect(acts.body.activities.map((a: any) => [a.actor_type, a.activity_type])).toEqual([
      ['user', 'message'],
      ['system', 'assignment'],
    ]);
    const user = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?actor_type=user`);
    expect(user.body.activities).toHaveLength(1);
    const page1 = await t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?limit=1`);
    expect(page1.body.activities).toHaveLength(1);
    const next = new URL(page1.body.next);
    const page2 = await t.api.get(`${next.pathname}${next.search}`);
    expect(page2.body.activities[0].activity_type).toBe('assignment');
    expect(page2.body.next).toBeUndefined();
  });

  it('searches by every filter of the table', async () => {
    expect(ids(await search('search=carlos'))).toEqual(['+573009990001']);
    expect(ids(await search('search=9990002'))).toEqual(['+573009990002']);
    expect(ids(await search('only_enqueued=true'))).toEqual(['+573009990003']);
    expect(ids(await search('status=UNASSIGNED'))).toEqual(['+573009990003']);
    expect(ids(await search('status=closed'))).toEqual(['+573009990002']);
    expect(ids(await search('status=open'))).toEqual(['+573009990001', '+573009990003']);
    expect(ids(await search(`owner=${encodeURIComponent(agent.email)}`))).toEqual(['+573009990001', '+573009990002']);
    expect(ids(await search('tags=vip,other'))).toEqual(['+573009990002']);
    expect(ids(await search('activity_type=status_change&actor_type=agent'))).toEqual(['+573009990002']);
    expect(ids(await search('activity_type=message&actor_type=user'))).toEqual(['+573009990003']);
    expect(ids(await search('actor_type=system'))).toEqual(['+573009990001']);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    expect((await search(`last_activity_from=${from}&last_activity_to=${to}`)).body.chats).toHaveLength(3);
    const old = new Date(Date.now() - 7_200_000).toISOString();
    expect((await search(`last_activity_from=${old}&last_activity_to=${from}`)).body.chats).toHaveLength(0);
    const p1 = await search('limit=2');
    expect(p1.body.chats).toHaveLength(2);
    const n = new URL(p1.body.next);
    const p2 = await t.api.get(`${n.pathname}${n.search}`);
    expect(p2.body.chats).toHaveLength(1);
    expect((await other.api.get('/v1/engagement/chat/search')).body.chats).toEqual([]);
  });

  it('sends a template when the 24-hour window is closed (a session text is refused)', async () => {
    await db().query(`UPDATE engagement.chats SET last_user_message_at = now() - interval '25 hours' WHERE id = $1`, [
      chat.chat_id,
    ]);
    const refused = await agent.api.postJson(`/v1/engagement/chat/${chat.chat_id}/send`, { text: 'hola' });
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('session_window_closed');
    const outbound = await approvedOutbound(t);
    const sent = await agent.api.postJson(`/v1/engagement/chat/${chat.chat_id}/send`, {
      outbound_id: outbound.outbound_id,
      var: { name: 'Carlos' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ actor: agent.email, text: outbound.content });
    expect(stack.sandbox.messages().filter((m) => m.to === '573009990001')).toEqual([
      expect.objectContaining({ type: 'template' }),
    ]);
    const missing = await agent.api.postJson(`/v1/engagement/chat/${chat.chat_id}/send`, {
      outbound_id: outbound.outbound_id,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([expect.objectContaining({ field: 'var.name' })]);
    const closed = await agent.api.postJson(`/v1/engagement/chat/${closedChat.chat_id}/send`, { text: 'hola' });
    expect(closed.body.error_code).toBe('chat_closed');
  });

  it('agent templates: create, update, list by prefix with limit and key, delete one and many', async () => {
    for (const name of ['saludo', 'saludo tarde', 'despedida', 'saludo noche'])
      expect(
        (
          await t.api.postJson('/v1/engagement/agent/templates', {
            template_name: name,
            template_type: 'text',
            content: name,
          })
        ).status,
      ).toBe(201);
    const dup = await t.api.postJson('/v1/engagement/agent/templates', {
      template_name: 'saludo',
      template_type: 'text',
    });
    expect(dup.status).toBe(409);
    const upd = await putJson(t.api, '/v1/engagement/agent/templates/saludo', {
      template_type: 'text',
      content: 'Hola',
    });
    expect(upd.body).toMatchObject({ template_name: 'saludo', content: 'Hola' });
    expect((await putJson(t.api, '/v1/engagement/agent/templates/nada', { template_type: 'text' })).status).toBe(404);
    const p1 = await t.api.get('/v1/engagement/agent/templates?prefix=saludo&limit=2');
    expect(p1.body.templates.map((x: any) => x.template_name)).toEqual(['saludo', 'saludo noche']);
    const n = new URL(p1.body.next);
    const p2 = await t.api.get(`${n.pathname}${n.search}`);
    expect(p2.body.templates.map((x: any) => x.template_name)).toEqual(['saludo tarde']);
    expect((await other.api.get('/v1/engagement/agent/templates')).body.templates).toEqual([]);
    expect((await t.api.delete('/v1/engagement/agent/templates/despedida')).body).toEqual({
      template_name: 'despedida',
      deleted: true,
    });
    expect((await t.api.delete('/v1/engagement/agent/templates/despedida')).status).toBe(404);
    const bulk = await t.api.postJson('/v1/engagement/agent/templates/delete', {
      template_names: ['saludo', 'saludo noche', 'nada'],
    });
    expect(bulk.body).toEqual({ deleted: ['saludo', 'saludo noche'], not_found: ['nada'] });
    expect((await t.api.get('/v1/engagement/agent/templates')).body.templates.map((x: any) => x.template_name)).toEqual(
      ['saludo tarde'],
    );
  });

  it('lists channels and the ICE servers with a TURN credential of the TURN REST API', async () => {
    const channels = await t.api.get('/v1/engagement/channels');
    expect(channels.body.channels).toEqual([
      expect.objectContaining({
        waba_line: t.line,
        channel_id: t.phoneNumberId,
        channel_type: 'whatsapp',
        open_chats: 2,
      }),
    ]);
    const ice = await agent.api.get('/v1/engagement/calling/ice-servers');
    expect(ice.status).toBe(200);
    const [stun, turn] = ice.body.ice_servers;
    expect(stun).toEqual({ urls: ['stun:stun.example.com:3478'] });
    expect(turn.urls).toEqual(['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349']);
    const [expiry, user] = turn.username.split(':');
    expect(user).toBe(agent.email);
    expect(Number(expiry) - Date.now() / 1000).toBeGreaterThan(590);
    expect(Number(expiry) - Date.now() / 1000).toBeLessThanOrEqual(601);
    expect(turn.credential).toBe(createHmac('sha1', TURN_SECRET).update(turn.username).digest('base64'));
    expect(ice.body.ttl).toBe(600);
  });

  it('an agent writes a note: an activity of the chat, never sent to the user', async () => {
    const before = stack.sandbox.messages().length;
    const note = await agent.api.postJson(`/v1/engagement/chat/${closedChat.chat_id}/notes`, {
      text: 'volver a llamar',
    });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({
      actor_type: 'agent',
      actor: agent.email,
      activity_type: 'note',
      text: 'volver a llamar',
    });
    expect(stack.sandbox.messages()).toHaveLength(before);
    expect(ids(await search('activity_type=note'))).toEqual(['+573009990002']);
    expect((await other.api.postJson(`/v1/engagement/chat/${closedChat.chat_id}/notes`, { text: 'x' })).status).toBe(
      404,
    );
  });

  it('unknown users, rulesets and chats are 404', async () => {
    const unknown = await t.api.postJson('/v1/engagement/agent/status', {
      username: 'nobody@x.test',
      status: 'online',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe('unknown_user');
    // A user of another tenant is not an agent here.
    const foreign = await other.api.postJson('/v1/engagement/agent/status', {
      username: agent.email,
      status: 'online',
    });
    expect(foreign.body.error_code).toBe('unknown_user');
    expect((await t.api.get('/v1/engagement/agent/assignment-rulesets/other')).body.error_code).toBe(
      'ruleset_not_found',
    );
    const fd = await t.api.postJson(`/v1/engagement/chat/${chat.chat_id}/force-dequeue`, {
      assignment_type: 'specific_agent',
      target: 'nobody@x.test',
    });
    expect(fd.body.error_code).toBe('agent_not_found');
    const closed = await t.api.postJson(`/v1/engagement/chat/${closedChat.chat_id}/force-dequeue`, {
      assignment_type: 'specific_agent',
      target: agent.email,
    });
    expect(closed.body.error_code).toBe('chat_closed');
  });
});
