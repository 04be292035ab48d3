// Bench scenario `pass`: token-endpoint throughput of pass (oidc-provider behind Nest, Postgres adapter)
// against a bare oidc-provider with its in-memory adapter, in the same run. Two operations:
//   - refresh_token grant (rotation: every request redeems a fresh single-use token),
//   - authorization_code exchange (every request a fresh code; pass: JSON as the spec's path).
// Tokens are minted beforehand through oidc-provider's own models (bench/pass-mint.mjs): for pass into its
// oidc_models table, for the baseline in its memory. The pool holds BENCH_PASS_POOL tokens of each kind
// (default: enough for (warm-up + duration) s at BENCH_PASS_MAX_RPS req/s, default 1500); a run that
// outlasts it answers 400s, reported as non-2xx. Goal: pass >= 40% of the baseline's req/s.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../tools/stack/util.mjs';
import { mintTokens } from './pass-mint.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const GOAL_RATIO = 0.4;

/** A provider in this process writing to pass's oidc_models (its adapter's format), to mint pass's tokens. */
async function passMinter(issuer, passClient, pool) {
  const { default: Provider } = await import('oidc-provider');
  class MintAdapter {
    constructor(model) {
      this.model = model;
    }
    async upsert(id, payload, expiresIn) {
      await pool.query(
        `INSERT INTO pass.oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + ($7 || ' seconds')::interval)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload`,
        [
          this.model,
          id,
          payload,
          payload.grantId ?? null,
          payload.uid ?? null,
          payload.userCode ?? null,
          String(expiresIn),
        ],
      );
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

/** Hands each request the next token of the pool (single use). */
const fromPool = (tokens, body) => {
  let i = 0;
  return (req) => ({ ...req, body: body(tokens[i++ % tokens.length]) });
};

export async function passScenario(ctx) {
  const { info, settings, log } = ctx;
  const passUrl = info.services.pass;
  const passClient = info.pass_client;
  const poolSize = Number(
    process.env.BENCH_PASS_POOL ??
      Math.ceil((settings.durationSec + settings.warmupSec) * Number(process.env.BENCH_PASS_MAX_RPS ?? 1500)),
  );
  const db = new pg.Pool({ connectionString: info.postgres_url, max: 8 });
  const port = await freePort();
  log(`pass: starting the bare oidc-provider and minting ${poolSize} refresh tokens and codes in it`);
  const baseline = await ctx.startChild(path.join(benchDir, 'pass-baseline-server.mjs'), {
    env: { BASELINE_PORT: String(port), BENCH_PASS_POOL: String(poolSize) },
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
    });

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

    const targets = [];
    targets.push(
      await ctx.measure(
        'baseline refresh_token',
        {
          url: base.url,
          requests: [
            {
              method: 'POST',
              path: '/token',
              headers: form,
              setupRequest: fromPool(base.refresh, (t) => baseForm({ grant_type: 'refresh_token', refresh_token: t })),
            },
          ],
        },
        { serverPid: baseline.process.pid },
      ),
    );
    targets.push(
      await ctx.measure('pass     refresh_token', {
        url: passUrl,
        requests: [
          {
            method: 'POST',
            path: '/v1/oauth2/token',
            headers: json,
            setupRequest: fromPool(passTokens.refresh, (t) =>
              passJson({ grant_type: 'refresh_token', refresh_token: t }),
            ),
          },
        ],
      }),
    );
    targets.push(
      await ctx.measure(
        'baseline authorization_code',
        {
          url: base.url,
          requests: [
            {
              method: 'POST',
              path: '/token',
              headers: form,
              setupRequest: fromPool(base.codes, (c) =>
                baseForm({ grant_type: 'authorization_code', code: c, redirect_uri: base.client.redirect_uris[0] }),
              ),
            },
          ],
        },
        { serverPid: baseline.process.pid },
      ),
    );
    targets.push(
      await ctx.measure('pass     authorization_code', {
        url: passUrl,
        requests: [
          {
            method: 'POST',
            path: '/v1/oauth2/token',
            headers: json,
            setupRequest: fromPool(passTokens.codes, (c) =>
              passJson({ grant_type: 'authorization_code', code: c, redirect_uri: passClient.redirect_uri }),
            ),
          },
        ],
      }),
    );
    const compare = (operation, b, s) => {
      const ratio = b.requests_per_sec_avg > 0 ? s.requests_per_sec_avg / b.requests_per_sec_avg : null;
      return {
        operation,
        baseline_rps: b.requests_per_sec_avg,
        pass_rps: s.requests_per_sec_avg,
        ratio: ratio === null ? null : Number(ratio.toFixed(3)),
        goal_ratio_met: ratio !== null && ratio >= GOAL_RATIO,
        clean_run: b.non_2xx + b.errors + s.non_2xx + s.errors === 0,
      };
    };
    const comparisons = [
      compare('refresh_token', targets[0], targets[1]),
      compare('authorization_code', targets[2], targets[3]),
    ];
    console.log(
      `\n== pass: ${settings.connections} connections, ${settings.durationSec}s per target (+${settings.warmupSec}s warm-up), pool ${poolSize} ==`,
    );
    for (const c of comparisons)
      console.log(
        `${c.operation.padEnd(20)} pass/bare oidc-provider req/s = ${c.pass_rps}/${c.baseline_rps} = ${c.ratio ?? 'n/a'} (goal >= ${GOAL_RATIO}: ${c.goal_ratio_met ? 'MET' : 'MISSED'})${c.clean_run ? '' : '  [run had non-2xx/errors: pool exhausted? raise BENCH_PASS_MAX_RPS]'}`,
      );
    const goalsMet = comparisons.every((c) => c.goal_ratio_met);
    console.log(`\ngoals ${goalsMet ? 'MET' : 'NOT met'}\n`);
    return {
      result: { goals: { minThroughputRatio: GOAL_RATIO }, goals_met: goalsMet, pool: poolSize, targets, comparisons },
    };
  } finally {
    await baseline.stop();
    await db.end().catch(() => {});
  }
}
