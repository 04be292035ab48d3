import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring download links of exports: `?expires=<unix s>&signature=<HMAC-SHA256(key,
 * "<export id>.<expires>") base64url>`. The key is derived from the service's credentials key.
 */
export class ExportLinks {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    this.key = createHmac('sha256', secret).update('engagement chat export links').digest();
  }

  sign(exportId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${exportId}.${expires}`).digest('base64url');
  }

  /** Whether the signature is ours and the link has not expired at `nowS`. */
  verify(exportId: string, expires: string | undefined, signature: string | undefined, nowS: number): boolean {
    if (!expires || !/^\d{1,12}$/.test(expires) || !signature) return false;
    const expected = Buffer.from(this.sign(exportId, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) && Number(expires) > nowS;
  }
}
