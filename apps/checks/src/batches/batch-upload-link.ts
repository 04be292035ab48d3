import { createHmac, timingSafeEqual } from 'node:crypto';

/** Upload links are valid this long (spec limit). */
export const UPLOAD_LINK_TTL_MS = 30 * 60_000;

/** Signs and verifies batch file upload links: HMAC-SHA256 over the batch id and the expiry. */
export class UploadLinkSigner {
  constructor(private readonly key: Buffer) {}

  sign(batchId: string, expiresAt: Date): string {
    return createHmac('sha256', this.key)
      .update(`${batchId}\n${Math.floor(expiresAt.getTime() / 1000)}`)
      .digest('base64url');
  }

  /** true when the signature is the one this key gives (constant-time comparison). */
  verify(batchId: string, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(batchId, new Date(expires * 1000)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
