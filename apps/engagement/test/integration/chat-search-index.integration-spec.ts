import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { engagementService } from '../../src/app.module';

/**
 * Chat search by contact name or phone answers from the trigram GIN indexes (pg_trgm), not from a
 * scan of the tenant's chats, with the spec's semantics kept: a case-insensitive part of the name,
 * or 3 or more digits of the phone. The suite runs on a schema of its own so that the indexes'
 * scan counters move only with its own requests.
 */
describe('chat search by name or phone on trigram indexes', () => {
  const SCHEMA = 'engagement_search_spec';
  // Enough chats that a scan costs more than the index (PostgreSQL rightly scans a table of a few
  // thousand rows); the bench's search figure is taken over as many.
  const CHATS = 100_000;
  let account: RunningService;
  let engagement: RunningService;
  let tenant: TestTenant;
  let api: ApiClient;

  const scans = async (index: string): Promise<number | undefined> => {
    const { rows } = await db().query(
      `SELECT idx_scan::int AS n FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = $2`,
      [SCHEMA, index],
    );
    return rows[0]?.n;
  };

  beforeAll(async () => {
    [account, engagement] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-chat-search-index' }),
      startInProcess('engagement', engagementService, { DB_SCHEMA: SCHEMA }),
    ]);
    tenant = await createTenant(account.url, [engagement.url]);
    api = new ApiClient(engagement.url, tenant.apiKey);
    // Many chats of the tenant (and of another), a few with the names and phones searched for.
    await db().query(
      `INSERT INTO ${SCHEMA}.chats (id, tenant_id, line_id, line_phone, queue, contact_phone, contact_name, status,
         owner, tags, enqueued_at, last_user_message_at, last_activity_at, last_actor_type, last_activity_type,
         created_at, updated_at)
       SELECT 'CHTIDX' || lpad(g::text, 10, '0'), CASE WHEN g % 5 = 0 THEN 'other-tenant' ELSE $1 END,
              'line', '+570000000001', '+570000000001', '+5731' || lpad(g::text, 8, '0'),
              CASE WHEN g = 4242 THEN 'Zuleima Quintero' WHEN g = 777 THEN 'Ana ZULEIMA Paz' ELSE 'Contacto ' || g END,
              'open', NULL, '{}', now(), now(), now() - g * interval '1 second', 'user', 'message', now(), now()
         FROM generate_series(1, $2::int) g`,
      [tenant.tenantId, CHATS],
    );
    await db().query(`ANALYZE ${SCHEMA}.chats`);
  });

  afterAll(async () => {
    await Promise.all([engagement?.close(), account?.close()]);
    await db().query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await closeDb();
  });

  it('the migration created pg_trgm and the two GIN indexes', async () => {
    const ext = await db().query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(ext.rows).toHaveLength(1);
    const { rows } = await db().query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'chats_contact_%_trgm_idx'
        ORDER BY indexname`,
      [SCHEMA],
    );
    expect(rows.map((r) => r.indexname)).toEqual(['chats_contact_name_trgm_idx', 'chats_contact_phone_trgm_idx']);
    for (const r of rows) expect(r.indexdef).toMatch(/USING gin .*gin_trgm_ops/);
  });

  it('a name search keeps its semantics (any case, any part) and is answered from the name index', async () => {
    const before = (await scans('chats_contact_name_trgm_idx')) ?? 0;
    const res = await api.get('/v1/engagement/chat/search?search=zuLEIma');
    expect(res.status).toBe(200);
    expect(res.body.chats.map((c: any) => c.contact.name).sort()).toEqual(['Ana ZULEIMA Paz', 'Zuleima Quintero']);
    const part = await api.get('/v1/engagement/chat/search?search=leima%20quin');
    expect(part.body.chats.map((c: any) => c.contact.name)).toEqual(['Zuleima Quintero']);
    // Statistics reach pg_stat_user_indexes when the service's connection flushes them (≤ ~10 s idle).
    await eventually(
      async () => expect(await scans('chats_contact_name_trgm_idx')).toBeGreaterThanOrEqual(before + 2),
      {
        timeoutMs: 30_000,
        intervalMs: 500,
      },
    );
  });

  it('a phone search (3 or more digits) also matches names and uses both indexes', async () => {
    const phoneBefore = (await scans('chats_contact_phone_trgm_idx')) ?? 0;
    const res = await api.get(`/v1/engagement/chat/search?search=${encodeURIComponent('00004242')}`);
    expect(res.body.chats.map((c: any) => c.contact.phone)).toEqual(['+573100004242']);
    await eventually(async () => expect(await scans('chats_contact_phone_trgm_idx')).toBeGreaterThan(phoneBefore), {
      timeoutMs: 30_000,
      intervalMs: 500,
    });
  });

  it("another tenant's chats are never found", async () => {
    // g = 5 belongs to the other tenant.
    const res = await api.get('/v1/engagement/chat/search?search=Contacto%205&limit=100');
    expect(res.body.chats.every((c: any) => c.contact.name !== 'Contacto 5')).toBe(true);
  });
});
