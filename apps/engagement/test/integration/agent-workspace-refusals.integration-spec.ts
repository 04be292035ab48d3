import { ApiClient, createTenant, db, TestTenant } from '@kyc/testing';

import { ConnectedTenant, connectTenant } from './support/engagement-helpers';
import { useEngagementStack } from './support/engagement-stack';
import { addAgent, chatOf, putJson, TestAgent, userWrites } from './support/workspace-helpers';

/** Every input rule of the agent workspace table: a 400 naming the field, and nothing stored. */
describe('agent workspace API: every refusal', () => {
  let tenant: TestTenant;
  let t: ConnectedTenant;
  let agent: TestAgent;
  let chat: any;

  const stack = useEngagementStack({ consumerGroup: 'account-workspace-refusals' });

  beforeAll(async () => {
    tenant = await createTenant(stack.account.url, [stack.engagement.url]);
    t = await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), stack.sandbox);
    agent = await addAgent(stack.account.url, stack.engagement.url, tenant, 'rafa');
    await userWrites(stack.sandbox, t, '573009980001', 'hola', 'Rosa Díaz');
    chat = await chatOf(t.api, '+573009980001');
  });

  const search = (q: string) => t.api.get(`/v1/engagement/chat/search?${q}`);

  describe('refusals: 400 naming the field, nothing stored', () => {
    const count = async (table: string) =>
      Number(
        (await db().query(`SELECT count(*)::int AS n FROM engagement.${table} WHERE tenant_id = $1`, [tenant.tenantId]))
          .rows[0].n,
      );
    let before: Record<string, number>;
    beforeAll(async () => {
      before = {};
      for (const table of ['agents', 'agent_templates', 'chat_exports', 'chats']) before[table] = await count(table);
    });
    afterAll(async () => {
      for (const table of Object.keys(before)) expect(await count(table)).toBe(before[table]);
    });

    const expect400 = async (res: Promise<any>, field: string) => {
      const r = await res;
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect(r.body.fields.map((f: any) => f.field)).toContain(field);
    };

    it.each([
      [{ username: 'not-an-email', status: 'online' }, 'username'],
      [{ status: 'online' }, 'username'],
      [{ username: 'a@b.co', status: 'away' }, 'status'],
      [{ username: 'a@b.co' }, 'status'],
      [{ username: 'a@b.co', status: 'online', groups: 'x' }, 'groups'],
      [{ username: 'a@b.co', status: 'online', groups: ['bad/group'] }, 'groups'],
    ])('agent status %j', (body, field) => expect400(t.api.postJson('/v1/engagement/agent/status', body), field));

    it.each([
      ['status=away', 'status'],
      ['groups=bad/group', 'groups'],
      ['start_key=%%%', 'start_key'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      [`username=${'x'.repeat(255)}`, 'username'],
    ])('agent list %s', (q, field) => expect400(t.api.get(`/v1/engagement/agent/status?${q}`), field));

    it.each([
      [{ update_type: 'everyone', capacity: 2 }, 'update_type'],
      [{ update_type: 'default' }, 'capacity'],
      [{ update_type: 'user', targets: ['a@b.co'] }, 'capacity'],
      [{ update_type: 'default', capacity: -1 }, 'capacity'],
      [{ update_type: 'default', capacity: 1001 }, 'capacity'],
      [{ update_type: 'default', capacity: 1.5 }, 'capacity'],
      [{ update_type: 'user', capacity: 2 }, 'targets'],
      [{ update_type: 'user', capacity: 2, targets: [] }, 'targets'],
      [{ update_type: 'user', capacity: 2, targets: ['nope'] }, 'targets'],
    ])('capacities %j', (body, field) => expect400(t.api.postJson('/v1/engagement/agent/capacities', body), field));

    it.each([
      [{ template_type: 'text' }, 'template_name'],
      [{ template_name: 'a/b', template_type: 'text' }, 'template_name'],
      [{ template_name: 'x'.repeat(129), template_type: 'text' }, 'template_name'],
      [{ template_name: 'ok' }, 'template_type'],
      [{ template_name: 'ok', template_type: 'image' }, 'template_type'],
      [{ template_name: 'ok', template_type: 'text', content: 'x'.repeat(4097) }, 'content'],
      [{ template_name: 'ok', template_type: 'text', content: null }, 'content'],
    ])('template create %j', (body, field) => expect400(t.api.postJson('/v1/engagement/agent/templates', body), field));

    it('template update, list and bulk delete', async () => {
      await expect400(putJson(t.api, '/v1/engagement/agent/templates/x', { template_type: 'audio' }), 'template_type');
      await expect400(
        putJson(t.api, '/v1/engagement/agent/templates/x', { template_type: 'text', content: null }),
        'content',
      );
      await expect400(t.api.get('/v1/engagement/agent/templates?limit=0'), 'limit');
      await expect400(t.api.get(`/v1/engagement/agent/templates?prefix=${'x'.repeat(129)}`), 'prefix');
      await expect400(t.api.get('/v1/engagement/agent/templates?start_key=zzz'), 'start_key');
      await expect400(
        t.api.postJson('/v1/engagement/agent/templates/delete', { template_names: [] }),
        'template_names',
      );
      await expect400(t.api.postJson('/v1/engagement/agent/templates/delete', {}), 'template_names');
      await expect400(
        t.api.postJson('/v1/engagement/agent/templates/delete', { template_names: ['a/b'] }),
        'template_names',
      );
    });

    it('force-dequeue, chat update, send', async () => {
      const fd = `/v1/engagement/chat/${chat.chat_id}/force-dequeue`;
      await expect400(t.api.postJson(fd, { assignment_type: 'round_robin', target: agent.email }), 'assignment_type');
      await expect400(t.api.postJson(fd, { assignment_type: 'specific_agent', target: 'lucia' }), 'target');
      await expect400(t.api.postJson(fd, { assignment_type: 'specific_agent' }), 'target');
      const up = `/v1/engagement/chat/agent/${chat.chat_id}`;
      await expect400(putJson(t.api, up, {}), 'owner');
      await expect400(putJson(t.api, up, { owner: 'lucia' }), 'owner');
      await expect400(putJson(t.api, up, { status: 'archived' }), 'status');
      await expect400(putJson(t.api, up, { status: 'UNASSIGNED' }), 'status');
      await expect400(putJson(t.api, up, { tags: ['a b'] }), 'tags');
      const send = `/v1/engagement/chat/${chat.chat_id}/send`;
      await expect400(t.api.postJson(send, {}), 'text');
      await expect400(t.api.postJson(send, { text: '' }), 'text');
      await expect400(t.api.postJson(send, { text: 'x'.repeat(4097) }), 'text');
      await expect400(t.api.postJson(send, { outbound_id: 'nope' }), 'outbound_id');
      await expect400(t.api.postJson(send, { outbound_id: `OTB${'a'.repeat(32)}`, var: 'x' }), 'var');
      const notes = `/v1/engagement/chat/${chat.chat_id}/notes`;
      await expect400(t.api.postJson(notes, {}), 'text');
      await expect400(t.api.postJson(notes, { text: '' }), 'text');
      await expect400(t.api.postJson(notes, { text: 'x'.repeat(4097) }), 'text');
    });

    it.each([
      ['last_activity_from=2026-11-01T00:00:00Z', 'last_activity_to'],
      ['last_activity_to=2026-11-01T00:00:00Z', 'last_activity_from'],
      ['last_activity_from=yesterday&last_activity_to=2026-11-01T00:00:00Z', 'last_activity_from'],
      ['last_activity_from=2026-11-02T00:00:00Z&last_activity_to=2026-11-01T00:00:00Z', 'last_activity_to'],
      ['only_enqueued=maybe', 'only_enqueued'],
      ['actor_type=robot', 'actor_type'],
      ['activity_type=call', 'activity_type'],
      ['owner=lucia', 'owner'],
      ['status=pending', 'status'],
      ['status=unassigned', 'status'],
      ['tags=a%20b', 'tags'],
      ['start_key=abc', 'start_key'],
      ['limit=500', 'limit'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ])('chat search %s', (q, field) => expect400(search(q), field));

    it.each([
      ['actor_type=robot', 'actor_type'],
      ['activity_type=call', 'activity_type'],
      ['start_key=abc', 'start_key'],
    ])('activities %s', (q, field) =>
      expect400(t.api.get(`/v1/engagement/chat/${chat.chat_id}/activities?${q}`), field),
    );

    const exportBody = {
      language: 'en',
      export_type: 'all_chats',
      export_format: 'tsv',
      time_range_start_date: '2026-10',
      time_range_end_date: '2026-11',
    };
    it.each([
      [{ language: 'fr' }, 'language'],
      [{ export_type: 'some_chats' }, 'export_type'],
      [{ export_format: 'csv' }, 'export_format'],
      [{ time_range_start_date: '2026-13' }, 'time_range_start_date'],
      [{ time_range_start_date: undefined }, 'time_range_start_date'],
      [{ time_range_end_date: 'november' }, 'time_range_end_date'],
      [{ time_range_start_date: '2026-11', time_range_end_date: '2026-10' }, 'time_range_end_date'],
      [{ export_type: 'single_chat' }, 'chat_id'],
      [{ name: 'x'.repeat(129) }, 'name'],
    ])('export %j', (change, field) =>
      expect400(t.api.postJson('/v1/engagement/chat/export', { ...exportBody, ...change }), field),
    );

    it.each([
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['time_range_start_date=2026', 'time_range_start_date'],
      ['time_range_end_date=x', 'time_range_end_date'],
      ['export_format=csv', 'export_format'],
      ['export_type=x', 'export_type'],
      ['language=fr', 'language'],
      ['start_key=abc', 'start_key'],
    ])('export list %s', (q, field) => expect400(t.api.get(`/v1/engagement/chat/export?${q}`), field));

    it('ruleset and channels', async () => {
      await expect400(
        putJson(t.api, '/v1/engagement/agent/assignment-rulesets/default', { strategy: 'random' }),
        'strategy',
      );
      await expect400(t.api.get('/v1/engagement/channels?start_key=abc'), 'start_key');
    });
  });
});
