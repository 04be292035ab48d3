// Bench scenario `pass`: token-endpoint throughput of pass (oidc-provider behind Nest, Postgres adapter)
// against a bare oidc-provider with its in-memory adapter, in the same run. Two operations:
//   - refresh_token grant (rotation: every request redeems a fresh single-use token),
//   - authorization_code exchange (every request a fresh code; pass: JSON as the spec's path).
// Tokens are minted beforehand through oidc-provider's own models (bench/pass-mint.mjs): for pass into its
// oidc_models table, for the baseline in its memory. Each target has its own pool of single-use tokens of
// each kind, sized for (warm-up + duration) s at a rate it cannot reach: BENCH_PASS_BASE_MAX_RPS (default
// 5000) for the bare provider, BENCH_PASS_MAX_RPS (default 2500) for pass (or BENCH_PASS_POOL tokens for
// both). Rates compared are 2xx answers per second; a target whose pool ran out (a token handed out twice
// answers 400) gets no ratio: the run says so and asks for a larger pool.
// Statements per request: committed transactions of pass's database (pg_stat_database, read after its
// statistics settle) over the measured run, less pass's pollers (their rate in an idle window just before),
// divided by the requests; every statement of pass's token path is its own transaction, so this counts its
// round trips to PostgreSQL.
// Goal: pass >= 40% of the baseline's 2xx req/s.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../tools/stack/util.mjs';
import { mintTokens } from './pass-mint.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const GOAL_RATIO = 0.4;

/**
 * Writes minted models to pass's oidc_models in multi-row inserts: the saves of one tick are queued and
 * written by one statement (tens of thousands of grants and tokens would otherwise take minutes).
 */
function batchedInserts(pool) {
  let queue = [];
  const flush = async () => {
    const rows = queue;
    queue = [];
    const col = (f) => rows.map((r) => r[f]);
    try {
      await pool.query(
        `INSERT INTO pass.oidc_models (model, id, payload, grant_id, expires_at)
         SELECT model, id, payload::jsonb, grant_id, now() + make_interval(secs => ttl)
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) AS t(model, id, payload, grant_id, ttl)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload`,
        [col('model'), col('id'), col('payload'), col('grantId'), col('ttl')],
      );
      for (const r of rows) r.resolve();
    } catch (err) {
      for (const r of rows) r.reject(err);
    }
  };
  return (model, id, payload, ttl) =>
    new Promise((resolve, reject) => {
      if (!queue.length) setImmediate(flush);
      queue.push({
        model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        ttl,
        resolve,
        reject,
      });
    });
}

/** A provider in this process writing to pass's oidc_models (its adapter's format), to mint pass's tokens. */
async function passMinter(issuer, passClient, pool) {
  const { default: Provider } = await import('oidc-provider');
  const insert = batchedInserts(pool);
  class MintAdapter {
    constructor(model) {
      this.model = model;
    }
    async upsert(id, payload, expiresIn) {
      await insert(this.model, id, payload, expiresIn);
    }
    async find(id) {
      if (this.model !== 'Client' || id !== passClient.client_id) return undefined;
      return {
        client_id: passClient.client_id,
        client_secret: passClient.client_secret,
        redirect_uris: [passClient.redirect_uri],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_post',
      };
    }
    async findByUid() {}
    async findByUserCode() {}
    async consume() {}
    async destroy() {}
    async revokeByGrantId() {}
  }
  return new Provider(issuer, {
    adapter: MintAdapter,
    acrValues: ['urn:pass:loa:1', 'urn:pass:loa:2'],
    ttl: { AuthorizationCode: 600, RefreshToken: 365 * 86400, Grant: 365 * 86400 },
    features: { devInteractions: { enabled: false } },
  });
}

/** Hands each request the next token of the pool (single use); `handedOut()` tells whether it ran out. */
const fromPool = (tokens, body) => {
  let i = 0;
  const setup = (req) => ({ ...req, body: body(tokens[i++ % tokens.length]) });
  setup.exhausted = () => i > tokens.length;
  return setup;
};

/** Committed transactions of the bench database so far, and when, once the backends' statistics are flushed. */
async function committedTransactions(db) {
  // Idle backends report their counters at most every 10 s (PostgreSQL 15+).
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const { rows } = await db.query(
    `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  return { n: Number(rows[0].n), at: Date.now() };
}

/**
 * measure() hooks adding `statements_per_request` (see the header) to pass's targets: the transactions of
 * the measured run (and the settling after it), less those of pass's pollers at the rate of an idle window
 * measured just before.
 */
const statementCount = (db) => ({
  before: async () => {
    const idleFrom = await committedTransactions(db);
    const idleTo = await committedTransactions(db);
    return { idleTo, idlePerMs: (idleTo.n - idleFrom.n) / (idleTo.at - idleFrom.at) };
  },
  after: async ({ idleTo, idlePerMs }, summary) => {
    const end = await committedTransactions(db);
    const background = idlePerMs * (end.at - idleTo.at);
    const n = end.n - idleTo.n - background;
    return {
      transactions: end.n - idleTo.n,
      idle_transactions_per_sec: Number((idlePerMs * 1000).toFixed(1)),
      statements_per_request: summary.requests_total ? Number((n / summary.requests_total).toFixed(2)) : null,
    };
  },
});

export async function passScenario(ctx) {
  const { info, settings, log } = ctx;
  const passUrl = info.services.pass;
  const passClient = info.pass_client;
  const seconds = settings.durationSec + settings.warmupSec;
  const poolSize = Number(
    process.env.BENCH_PASS_POOL ?? Math.ceil(seconds * Number(process.env.BENCH_PASS_MAX_RPS ?? 2500)),
  );
  const basePoolSize = Number(
    process.env.BENCH_PASS_POOL ?? Math.ceil(seconds * Number(process.env.BENCH_PASS_BASE_MAX_RPS ?? 5000)),
  );
  const db = new pg.Pool({ connectionString: info.postgres_url, max: 8 });
  const port = await freePort();
  log(`pass: starting the bare oidc-provider and minting ${basePoolSize} refresh tokens and codes in it`);
  const baseline = await ctx.startChild(path.join(benchDir, 'pass-baseline-server.mjs'), {
    env: { BASELINE_PORT: String(port), BENCH_PASS_POOL: String(basePoolSize) },
    readyTimeoutMs: 300_000,
    name: 'bare oidc-provider',
  });
  try {
    const base = baseline.ready;
    const accountId = (await db.query(`SELECT id FROM pass.users WHERE email = $1`, [passClient.login_hint])).rows[0]
      ?.id;
    if (!accountId) throw new Error('the pass demo user is missing (the stack seeds it)');
    log(`pass: minting ${poolSize} refresh tokens and codes into pass's oidc_models`);
    const minter = await passMinter(passUrl, passClient, db);
    const passTokens = await mintTokens(minter, {
      clientId: passClient.client_id,
      accountId,
      redirectUri: passClient.redirect_uri,
      count: poolSize,
      parallel: 500,
    });
    // The mint's tens of thousands of fresh rows would otherwise be vacuumed, analysed and checkpointed
    // while the first target runs.
    await db.query('VACUUM (ANALYZE) pass.oidc_models');
    await db.query('CHECKPOINT');

    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const json = { 'content-type': 'application/json' };
    const baseForm = (fields) =>
      new URLSearchParams({
        ...fields,
        client_id: base.client.client_id,
        client_secret: base.client.client_secret,
      }).toString();
    const passJson = (fields) =>
      JSON.stringify({ ...fields, client_id: passClient.client_id, client_secret: passClient.client_secret });

    const pools = {
      baseRefresh: fromPool(base.refresh, (t) => baseForm({ grant_type: 'refresh_token', refresh_token: t })),
      passRefresh: fromPool(passTokens.refresh, (t) => passJson({ grant_type: 'refresh_token', refresh_token: t })),
      baseCode: fromPool(base.codes, (c) =>
        baseForm({ grant_type: 'authorization_code', code: c, redirect_uri: base.client.redirect_uris[0] }),
      ),
      passCode: fromPool(passTokens.codes, (c) =>
        passJson({ grant_type: 'authorization_code', code: c, redirect_uri: passClient.redirect_uri }),
      ),
    };
    const passPid = ctx.stack?.processes?.find((p) => p.name === 'pass')?.pid;
    const bare = (name, setupRequest) =>
      ctx.measure(
        `baseline ${name}`,
        { url: base.url, requests: [{ method: 'POST', path: '/token', headers: form, setupRequest }] },
        { serverPid: baseline.process.pid },
      );
    const pass = (name, setupRequest) =>
      ctx.measure(
        `pass     ${name}`,
        { url: passUrl, requests: [{ method: 'POST', path: '/v1/oauth2/token', headers: json, setupRequest }] },
        { ...statementCount(db), serverPid: passPid },
      );
    const targets = [
      await bare('refresh_token', pools.baseRefresh),
      await pass('refresh_token', pools.passRefresh),
      await bare('authorization_code', pools.baseCode),
      await pass('authorization_code', pools.passCode),
    ];
    const rate2xx = (t) => (t.duration_s > 0 ? Number((t.responses_2xx / t.duration_s).toFixed(1)) : 0);
    const compare = (operation, b, s, bPool, sPool) => {
      const exhausted = [bPool.exhausted() && 'baseline', sPool.exhausted() && 'pass'].filter(Boolean);
      const ratio = !exhausted.length && rate2xx(b) > 0 ? rate2xx(s) / rate2xx(b) : null;
      return {
        operation,
        baseline_2xx_per_sec: rate2xx(b),
        pass_2xx_per_sec: rate2xx(s),
        ratio: ratio === null ? null : Number(ratio.toFixed(3)),
        goal_ratio_met: ratio !== null && ratio >= GOAL_RATIO,
        pool_exhausted: exhausted,
        pass_statements_per_request: s.checks?.statements_per_request ?? null,
        clean_run: b.non_2xx + b.errors + s.non_2xx + s.errors === 0,
      };
    };
    const comparisons = [
      compare('refresh_token', targets[0], targets[1], pools.baseRefresh, pools.passRefresh),
      compare('authorization_code', targets[2], targets[3], pools.baseCode, pools.passCode),
    ];
    console.log(
      `\n== pass: ${settings.connections} connections, ${settings.durationSec}s per target (+${settings.warmupSec}s warm-up), pools: bare ${basePoolSize}, pass ${poolSize} ==`,
    );
    for (const c of comparisons) {
      const verdict = c.pool_exhausted.length
        ? `no ratio: the ${c.pool_exhausted.join(' and ')} token pool ran out (raise BENCH_PASS_BASE_MAX_RPS / BENCH_PASS_MAX_RPS)`
        : `${c.ratio} (goal >= ${GOAL_RATIO}: ${c.goal_ratio_met ? 'MET' : 'MISSED'})`;
      console.log(
        `${c.operation.padEnd(20)} pass/bare oidc-provider 2xx/s = ${c.pass_2xx_per_sec}/${c.baseline_2xx_per_sec} = ${verdict}; pass statements/request ${c.pass_statements_per_request ?? 'n/a'}${c.clean_run ? '' : '  [run had non-2xx/errors]'}`,
      );
    }
    const goalsMet = comparisons.every((c) => c.goal_ratio_met);
    console.log(`\ngoals ${goalsMet ? 'MET' : 'NOT met'}\n`);
    return {
      result: {
        goals: { minThroughputRatio: GOAL_RATIO },
        goals_met: goalsMet,
        pools: { baseline: basePoolSize, pass: poolSize },
        targets,
        comparisons,
      },
    };
  } finally {
    await baseline.stop();
    await db.end().catch(() => {});
  }
}
