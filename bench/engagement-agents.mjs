// Agent workspace benchmark (scenario `engagement-agents` of bench/run.mjs):
//   (a) chats opened and assigned per second: BENCH_AGENTS_ONLINE (50) agents online, then
//       BENCH_AGENTS_CHATS (2000) users write to the line through the SANDBOX provider at once
//       (BENCH_AGENTS_WRITERS, 32, in flight); each message goes provider → signed webhook →
//       webhook job → chat opened → assigned by the ruleset. Timed from the first message to the
//       last chat having an owner; every agent's counter is checked against the chats it owns.
//   (b) chat search latency over BENCH_AGENTS_SEARCH_CHATS (100,000) chats seeded in bulk (one SQL
//       statement): a mix of the search filters (status, UNASSIGNED, owner, tags, name, phone,
//       latest activity, a last-activity range), p50/p99 with autocannon.
// The stack runs account, identity and checks (the demo tenant, its key and users); this scenario
// starts the sandbox provider and the engagement service itself (as bench/engagement.mjs does).
import { randomBytes } from 'node:crypto';

import pg from 'pg';

import { StackError } from '../tools/stack/util.mjs';
import { call, connectDemoTenant, json, sleep, startEngagementBench } from './engagement-setup.mjs';
import { num } from './kit.mjs';

/** Runs `work(i)` for i in [0, n) with `width` in flight. */
async function pool(n, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

export async function engagementAgentsBenchmark(ctx) {
  const agentCount = num('BENCH_AGENTS_ONLINE', 50);
  const chats = num('BENCH_AGENTS_CHATS', 2000);
  const writers = num('BENCH_AGENTS_WRITERS', 32);
  const searchChats = num('BENCH_AGENTS_SEARCH_CHATS', 100_000);
  const bench = await startEngagementBench(ctx);
  const { sandbox, base, headers } = bench;
  const tenantId = ctx.info.tenant_id;
  const db = new pg.Client({ connectionString: ctx.info.postgres_url });
  await db.connect();
  try {
    const { waba, line } = await connectDemoTenant(bench);

    // 50 agents: users of the account service, online, with room for every chat of the run.
    const run = randomBytes(3).toString('hex');
    const emails = Array.from({ length: agentCount }, (_, i) => `agent${i}-${run}@bench.test`);
    // An account with billing hubs needs one on each user.
    const hubs = (await json(`${ctx.info.services.account}/v1/account/settings/billing-hubs`, { headers }))
      .billing_hubs;
    const hub = hubs?.length ? { billing_hub: hubs[0] } : {};
    await pool(emails.length, 8, (i) =>
      json(`${ctx.info.services.account}/v1/account/users`, {
        method: 'POST',
        headers,
        body: { email: emails[i], ...hub },
      }),
    );
    await json(`${base}/v1/engagement/agent/capacities`, {
      method: 'POST',
      headers,
      body: { update_type: 'default', capacity: Math.ceil(chats / Math.max(1, agentCount)) + 10 },
    });
    for (const email of emails)
      for (let i = 0; ; i++) {
        const r = await call(`${base}/v1/engagement/agent/status`, {
          method: 'POST',
          headers,
          body: { username: email, status: 'online' },
        });
        if (r.status === 200) break;
        if (i > 200) throw new StackError(`agent ${email} not known to engagement: ${r.status}`);
        await sleep(100);
      }
    ctx.log(`engagement-agents: ${agentCount} agents online on ${line.waba_line}`);

    // (a) chats opened and assigned per second.
    const assigned = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*)::int AS n FROM engagement.chats WHERE tenant_id = $1 AND line_id = $2 AND owner IS NOT NULL`,
            [tenantId, waba.phone_numbers[0].id],
          )
        ).rows[0].n,
      );
    const started = Date.now();
    await pool(chats, writers, (i) =>
      json(`${sandbox.url}/_sandbox/reply`, {
        method: 'POST',
        body: {
          phone_number_id: waba.phone_numbers[0].id,
          from: `57320${String(i).padStart(7, '0')}`,
          text: 'hola',
          name: `User ${i}`,
        },
      }),
    );
    const writtenS = (Date.now() - started) / 1000;
    let done = 0;
    for (let i = 0; (done = await assigned()) < chats; i++) {
      if (i > 6000) throw new StackError(`only ${done} of ${chats} chats were assigned after 10 minutes`);
      await sleep(100);
    }
    const assignedS = (Date.now() - started) / 1000;
    const loads = (
      await db.query(
        `SELECT a.email, a.active_chats, (SELECT count(*)::int FROM engagement.chats c
            WHERE c.tenant_id = a.tenant_id AND c.owner = a.email AND c.status = 'open') AS owned
           FROM engagement.agents a WHERE a.tenant_id = $1`,
        [tenantId],
      )
    ).rows;
    const mismatched = loads.filter((a) => a.active_chats !== a.owned).length;
    const perAgent = loads.map((a) => a.owned);
    const perSec = chats / assignedS;
    ctx.log(
      `engagement-agents: ${chats} chats opened and assigned in ${assignedS.toFixed(1)} s (${perSec.toFixed(0)}/s; messages written in ${writtenS.toFixed(1)} s); per agent ${Math.min(...perAgent)}..${Math.max(...perAgent)}; counter mismatches ${mismatched}`,
    );

    // (b) search over seeded chats.
    const seedStart = Date.now();
    await db.query(
      `INSERT INTO engagement.chats (id, tenant_id, line_id, line_phone, queue, contact_phone, contact_name, status, owner,
         tags, enqueued_at, last_user_message_at, last_activity_at, last_actor_type, last_activity_type, created_at, updated_at)
       SELECT 'CHTS' || lpad(g::text, 28, '0'), $1, 'bench-line', '+570000000099', '+570000000099',
              '+5733' || lpad(g::text, 8, '0'), 'Contacto ' || g,
              CASE WHEN g % 3 = 0 THEN 'closed' ELSE 'open' END,
              CASE WHEN g % 4 = 0 THEN NULL ELSE 'agent' || (g % $2) || '-seed@bench.test' END,
              CASE WHEN g % 10 = 0 THEN ARRAY['vip'] ELSE '{}'::text[] END,
              now() - g * interval '1 second', now() - g * interval '1 second', now() - g * interval '1 second',
              (ARRAY['user','agent','system','bot'])[1 + g % 4], (ARRAY['message','assignment','status_change','note'])[1 + g % 4],
              now() - g * interval '1 second', now() - g * interval '1 second'
         FROM generate_series(1, $3::int) g`,
      [tenantId, Math.max(1, agentCount), searchChats],
    );
    await db.query('ANALYZE engagement.chats');
    const seededS = (Date.now() - seedStart) / 1000;
    ctx.log(`engagement-agents: ${searchChats} chats seeded in ${seededS.toFixed(1)} s`);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date().toISOString();
    const queries = [
      'status=open',
      'status=UNASSIGNED',
      'only_enqueued=true',
      `owner=agent7-seed%40bench.test`,
      'tags=vip',
      'search=Contacto%2012345',
      'search=3300054321',
      'actor_type=user&activity_type=message',
      `last_activity_from=${from}&last_activity_to=${to}`,
      'status=closed&tags=vip&limit=50',
    ];
    const search = await ctx.measure(
      `engagement GET /v1/engagement/chat/search over ${searchChats} chats (mixed filters)`,
      {
        url: base,
        headers,
        requests: queries.map((q) => ({ method: 'GET', path: `/v1/engagement/chat/search?${q}` })),
      },
    );
    return {
      result: {
        note: 'Figures taken on a shared, loaded machine are not measurements; compare same-run numbers only.',
        assignment: {
          agents_online: agentCount,
          chats,
          writers,
          messages_written_s: Math.round(writtenS * 10) / 10,
          all_assigned_s: Math.round(assignedS * 10) / 10,
          chats_opened_and_assigned_per_sec: Math.round(perSec),
          per_agent_min: Math.min(...perAgent),
          per_agent_max: Math.max(...perAgent),
          counter_mismatches: mismatched,
        },
        search: {
          chats: searchChats,
          seeded_s: Math.round(seededS * 10) / 10,
          queries,
          p50_ms: search.latency_ms.p50,
          p99_ms: search.latency_ms.p99,
          requests_per_sec: search.requests_per_sec_avg,
          summary: search,
        },
      },
    };
  } finally {
    await db.end().catch(() => {});
    await bench.stop();
  }
}
