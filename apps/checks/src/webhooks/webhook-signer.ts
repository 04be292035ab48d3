import { createHmac, timingSafeEqual } from 'node:crypto';

import { canonicalJson, SecretSealer } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-signature';
/** A signature older or newer than this (by the engine's clock) is refused: replays of captured calls fail. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * HMAC-SHA256 signatures of webhook calls: header `X-Webhook-Signature: t=<unix seconds>,v1=<hex>`,
 * where v1 = HMAC(secret, `<t>.<canonical JSON of the body>`) (keys sorted, so form and JSON
 * bodies sign the same). The secret of each webhook type is derived from CHECKS_CREDENTIALS_KEY
 * with HKDF-SHA256 (salt `checks-webhooks`, info = the type), so no extra secret needs deploying;
 * a provider is given its type's secret once (see docs/services/checks.md, "Health and webhooks").
 */
@Injectable()
export class WebhookSigner {
  constructor(private readonly cipher: SecretSealer) {}

  secret(type: string): Buffer {
    return this.cipher.deriveKey('checks-webhooks', type);
  }

  sign(type: string, body: unknown, at: Date): string {
    const t = Math.floor(at.getTime() / 1000);
    return `t=${t},v1=${this.mac(type, t, body)}`;
  }

  verify(type: string, body: unknown, header: string | undefined, now: Date): boolean {
    if (!header) return false;
    const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return false;
    if (Math.abs(now.getTime() / 1000 - t) > WEBHOOK_TOLERANCE_SECONDS) return false;
    return timingSafeEqual(Buffer.from(parts.v1, 'hex'), Buffer.from(this.mac(type, t, body), 'hex'));
  }

  private mac(type: string, t: number, body: unknown): string {
    return createHmac('sha256', this.secret(type))
      .update(`${t}.${canonicalJson(body ?? {})}`)
      .digest('hex');
  }
}
