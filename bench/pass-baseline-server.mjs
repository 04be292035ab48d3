// The baseline of the `pass` bench scenario: a bare oidc-provider (8.x, as pass) with in-memory storage,
// one static confidential client, refresh-token rotation and the same token lifetimes, on BASELINE_PORT. It
// mints BENCH_PASS_POOL refresh tokens and codes at start and hands them to the runner in its ready message.
import http from 'node:http';
import Provider from 'oidc-provider';
import { mintTokens } from './pass-mint.mjs';

/**
 * oidc-provider's own in-memory adapter keeps at most 1,000 entries (an LRU): the bench's pool of minted
 * tokens would evict its grant. This is the same in-memory storage without the bound (a Map per process).
 */
const store = new Map();
const grants = new Map();
class UnboundedMemoryAdapter {
  constructor(model) {
    this.model = model;
  }
  key(id) {
    return `${this.model}:${id}`;
  }
  async upsert(id, payload, expiresIn) {
    store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    if (payload.grantId) {
      const keys = grants.get(payload.grantId) ?? [];
      keys.push(this.key(id));
      grants.set(payload.grantId, keys);
    }
  }
  async find(id) {
    const entry = store.get(this.key(id));
    if (!entry || (entry.expiresAt && entry.expiresAt < Date.now())) return undefined;
    return entry.payload;
  }
  async findByUid(uid) {
    for (const { payload } of store.values()) if (payload.uid === uid) return payload;
    return undefined;
  }
  async findByUserCode(code) {
    for (const { payload } of store.values()) if (payload.userCode === code) return payload;
    return undefined;
  }
  async consume(id) {
    const entry = store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    store.delete(this.key(id));
  }
  async revokeByGrantId(grantId) {
    for (const key of grants.get(grantId) ?? []) store.delete(key);
    grants.delete(grantId);
  }
}

const port = Number(process.env.BASELINE_PORT);
const issuer = `http://127.0.0.1:${port}`;
const client = { client_id: 'bench', client_secret: 'bench-secret', redirect_uris: ['http://localhost:5173/callback'] };
const provider = new Provider(issuer, {
  adapter: UnboundedMemoryAdapter,
  clients: [
    {
      ...client,
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  claims: { openid: ['sub', 'acr', 'amr', 'auth_time'] },
  acrValues: ['urn:pass:loa:1', 'urn:pass:loa:2'],
  rotateRefreshToken: true,
  issueRefreshToken: () => true,
  pkce: { required: () => false, methods: ['S256'] },
  ttl: { AuthorizationCode: 600, AccessToken: 3600, IdToken: 300, RefreshToken: 365 * 86400, Grant: 365 * 86400 },
  features: { devInteractions: { enabled: false } },
  routes: { token: '/token' },
});
const handler = provider.callback();
const server = http.createServer(handler);
server.listen(port, '127.0.0.1', async () => {
  const tokens = await mintTokens(provider, {
    clientId: client.client_id,
    accountId: 'bench-user',
    redirectUri: client.redirect_uris[0],
    count: Number(process.env.BENCH_PASS_POOL ?? 10000),
    parallel: 500,
  });
  process.send?.({ ready: true, url: issuer, client, ...tokens });
});
