import { createHmac } from 'node:crypto';

/**
 * A short-lived TURN credential in the TURN REST API scheme (draft-uberti-behave-turn-rest, what
 * coturn's `use-auth-secret` checks): username `<expiry unix seconds>:<user>`, credential
 * base64(HMAC-SHA1(shared secret, username)). The TURN server recomputes it; nothing is stored.
 */
export function turnCredential(
  secret: string,
  user: string,
  nowMs: number,
  ttlS: number,
): { username: string; credential: string; expiresAt: Date } {
  const expiry = Math.floor(nowMs / 1000) + ttlS;
  const username = `${expiry}:${user}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential, expiresAt: new Date(expiry * 1000) };
}
