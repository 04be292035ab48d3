import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';
/** Receivers should refuse signatures older (or newer) than this. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

const hmac = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one v1 entry per secret (the current
 * one first; during a rotation also the previous one).
 */
export function signatureHeader(secrets: readonly string[], body: string, timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${hmac(s, timestamp, body)}`)].join(',');
}

export type VerifyResult =
  { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'too_old' | 'too_new' | 'no_match' };

/**
 * What a receiver does: parse the header, refuse timestamps outside the tolerance (replays of an
 * old request), then accept if any v1 entry is the HMAC of "<t>.<raw body>" with its secret
 * (compared in constant time). Deduplicate on the Idempotency-Key header to refuse a replay
 * within the tolerance window.
 */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): VerifyResult {
  if (!header) return { ok: false, reason: 'malformed' };
  const entries = header.split(',').map((part) => part.trim().split('='));
  const t = entries.find(([k]) => k === 't')?.[1];
  const signatures = entries.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v);
  const timestamp = Number(t);
  if (!t || !/^\d+$/.test(t) || !signatures.length) return { ok: false, reason: 'malformed' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (timestamp < now - tolerance) return { ok: false, reason: 'too_old' };
  if (timestamp > now + tolerance) return { ok: false, reason: 'too_new' };
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  const match = signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { ok: true, timestamp } : { ok: false, reason: 'no_match' };
}
