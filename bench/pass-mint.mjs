// Mints refresh tokens and authorization codes directly through an oidc-provider instance's models (the
// bench needs thousands of single-use tokens; the browser flow would take minutes). Used for both targets
// of the `pass` scenario: the bare provider (in its own process, memory adapter) and pass (a provider in the
// bench process writing to pass's oidc_models table, the format pass's Postgres adapter reads).

/**
 * Mints `count` refresh tokens and `count` codes, each of its own grant (as real sign-ins are): a token used
 * twice (a run that outlasts the pool) revokes only its own family, not every other token of the pool.
 * Saves run `parallel` at a time.
 */
export async function mintTokens(provider, { clientId, accountId, redirectUri, count, parallel = 50 }) {
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error(`client ${clientId} not found by the minting provider`);
  const authTime = Math.floor(Date.now() / 1000);
  const common = async () => {
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope('openid email');
    const grantId = await grant.save();
    return {
      accountId,
      client,
      grantId,
      scope: 'openid email',
      authTime,
      acr: 'urn:pass:loa:2',
      amr: ['otp', 'email'],
    };
  };
  const refresh = [];
  const codes = [];
  for (let i = 0; i < count; i += parallel) {
    const n = Math.min(parallel, count - i);
    const batch = await Promise.all(
      Array.from({ length: n }, async () => [
        await new provider.RefreshToken({ ...(await common()), gty: 'authorization_code' }).save(),
        await new provider.AuthorizationCode({ ...(await common()), redirectUri }).save(),
      ]),
    );
    for (const [r, c] of batch) {
      refresh.push(r);
      codes.push(c);
    }
  }
  return { refresh, codes };
}
