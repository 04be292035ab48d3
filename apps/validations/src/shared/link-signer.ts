import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { OneTimeCodePurpose } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ValidationsConfig } from '../config/validations.config';

/**
 * The service's keyed primitives, all from VALIDATIONS_SECRET_KEY: signatures of upload and
 * media links (HMAC-SHA256 over purpose, id and expiry), the key of the OTPs' hashes (the platform's
 * one-time codes: HMAC, so a leaked table does not give codes away to a 10^6 brute force) and sealing
 * of a code on its way to the delivery job.
 */
@Injectable()
export class Secrets {
  private readonly signKey: Buffer;
  private readonly sealKey: Buffer;
  /** E-mail and phone OTPs: one use, so an account's wrong guesses are counted across both. */
  readonly otp: OneTimeCodePurpose;

  constructor(config: ValidationsConfig) {
    const derive = (purpose: string) => createHmac('sha256', config.secretKey).update(purpose).digest();
    this.signKey = derive('links');
    this.otp = { name: 'validations.otp', key: derive('otp') };
    this.sealKey = derive('seal');
  }

  sign(purpose: string, id: string, expires: number): string {
    return createHmac('sha256', this.signKey).update(`${purpose}\n${id}\n${expires}`).digest('base64url');
  }

  /** Constant-time check of a link signature (the expiry is checked by the caller). */
  verify(purpose: string, id: string, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, id, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** A signed link: `<base><path>?expires=<unix s>&signature=...`. */
  link(base: string, path: string, purpose: string, id: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${base}${path}?expires=${expires}&signature=${this.sign(purpose, id, expires)}`;
  }

  /** AES-256-GCM seal (base64url iv.tag.ciphertext). */
  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
