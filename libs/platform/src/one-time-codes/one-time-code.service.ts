import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { PlatformConfig } from '../config/platform.config';
import { rawQuery, writeQuery } from '../database/raw-entity';
import {
  CLEAR_LIMIT_SQL,
  CONSUME_CODE_SQL,
  INSERT_CODE_SQL,
  LATEST_CODE_SQL,
  LOCK_LIMIT_SQL,
  LOCKED_FOR_SQL,
  PURGE_CODES_SQL,
  PURGE_LIMITS_SQL,
  REFUND_LIMIT_SQL,
  TAKE_CODE_ATTEMPT_SQL,
  TAKE_LIMIT_SQL,
} from './one-time-codes.sql';

/** One use of codes in a service (pass sign-in, validations e-mail). Codes and limits of two uses are apart. */
export interface OneTimeCodePurpose {
  /** e.g. `pass.sign-in`: part of every limit key. */
  name: string;
  /** HMAC key of the stored code hashes (the service's secret, derived for this use). */
  key: string | Buffer;
}

/** A code to send. */
export interface CodeRequest {
  /** What the code unlocks (an interaction, a validation): verify finds the reference's latest code. */
  reference: string;
  /** The person whose wrong guesses are counted together across codes (an e-mail, a tenant's account). */
  subject: string;
  /** Where the code goes (an e-mail address, a phone number): codes sent there are limited per hour. */
  address: string;
  /** The client address that asked for it (request.ip), when a person's device asks: limited per hour. */
  clientAddress?: string;
  ttlSeconds: number;
  /** Wrong guesses this code allows (default OTP_MAX_ATTEMPTS_PER_CODE). */
  maxAttempts?: number;
}

/** Why no code is sent: the limit used up and the seconds until one is sent again. */
export interface CodeRefusal {
  refused: 'address' | 'client' | 'subject';
  retryAfterSeconds: number;
}

/**
 * What a guess came to:
 * - accepted: the code is right (and now used up);
 * - wrong: not the code; `attemptsLeft` of this code (0: it is used up, ask for a new one);
 * - locked: the person made too many wrong guesses (of any of their codes): none is compared until
 *   `retryAfterSeconds` have passed (`attemptsLeft` of this code when this guess was their last, wrong);
 * - unavailable: no code to compare with: none was sent, it expired, was used, or its attempts are used up.
 */
export type CodeCheck =
  | { outcome: 'accepted'; subject: string }
  | { outcome: 'wrong'; subject: string; attemptsLeft: number }
  | { outcome: 'locked'; retryAfterSeconds: number; attemptsLeft?: number }
  | { outcome: 'unavailable'; reason: 'none' | 'expired' | 'used' | 'attempts_used' };

/** "15 minutes", "1 minute", "2 hours": a wait told to a person. */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

const PURGE_EVERY_MS = 10 * 60_000;

/** A reference's latest code as LATEST_CODE_SQL reads it. */
interface Latest {
  id: string;
  subject: string;
  attempts: number;
  max_attempts: number;
  consumed_at: Date | null;
  expired: boolean;
}

/**
 * One-time codes of every service (pass sign-in, validations e-mail and phone OTPs), on tables in
 * the service's schema (createOneTimeCodeTables). Guesses are counted in PostgreSQL before a code is
 * compared, per code (its max_attempts) and per person (OTP_MAX_ATTEMPTS_PER_SUBJECT in
 * OTP_ATTEMPT_WINDOW_SECONDS), each by one row update that concurrent guesses queue on: a burst
 * evaluates no more guesses than allowed. A person past the limit is locked out for
 * OTP_LOCKOUT_SECONDS, twice as long at each further lockout (at most OTP_MAX_LOCKOUT_SECONDS).
 * Codes sent are limited per address and per client address an hour, with the same growing lockout.
 * The statements run on their own (autocommit): a count is never rolled back with the caller's work.
 */
@Injectable()
export class OneTimeCodeService {
  private lastPurge = 0;

  constructor(
    private readonly config: PlatformConfig,
    private readonly dataSource: DataSource,
  ) {}

  /** A random code of `digits` digits. */
  newCode(digits = 6): string {
    return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
  }

  /**
   * Counts a code to send against the address's and the client address's hourly limits; a person
   * locked out gets no code either. Call before the transaction that stores the code (create).
   */
  async admit(
    purpose: OneTimeCodePurpose,
    req: Omit<CodeRequest, 'reference' | 'ttlSeconds'>,
  ): Promise<CodeRefusal | undefined> {
    const lockedFor = await this.lockedFor(this.subjectKey(purpose, req.subject));
    if (lockedFor) return { refused: 'subject', retryAfterSeconds: lockedFor };
    const c = this.config;
    const limits: [CodeRefusal['refused'], string, number][] = [
      ['address', `issue:${purpose.name}:address:${req.address.toLowerCase()}`, c.OTP_ISSUE_PER_ADDRESS_PER_HOUR],
    ];
    if (req.clientAddress)
      limits.push(['client', `issue:${purpose.name}:client:${req.clientAddress}`, c.OTP_ISSUE_PER_CLIENT_PER_HOUR]);
    const taken: string[] = [];
    for (const [scope, key, max] of limits) {
      if (max <= 0) continue;
      const { wait } = await this.take(key, max, 3600);
      if (wait) {
        for (const k of taken) await rawQuery(this.dataSource, REFUND_LIMIT_SQL, [k]);
        return { refused: scope, retryAfterSeconds: wait };
      }
      taken.push(key);
    }
    return undefined;
  }

  /** Stores a new code for the reference (in the caller's transaction when a manager is given); answers the code to send. */
  async create(purpose: OneTimeCodePurpose, req: CodeRequest, manager?: EntityManager): Promise<string> {
    const code = this.newCode();
    await writeQuery(
      this.dataSource,
      INSERT_CODE_SQL,
      [
        randomUUID(),
        purpose.name,
        req.reference,
        req.subject,
        this.hash(purpose, req.reference, code),
        req.maxAttempts ?? this.config.OTP_MAX_ATTEMPTS_PER_CODE,
        req.ttlSeconds,
      ],
      manager,
    );
    await this.purge();
    return code;
  }

  /** admit, then create: the code to send, or why none is sent. */
  async issue(purpose: OneTimeCodePurpose, req: CodeRequest): Promise<{ code: string } | CodeRefusal> {
    const refusal = await this.admit(purpose, req);
    if (refusal) return refusal;
    return { code: await this.create(purpose, req) };
  }

  /** Compares a guess with the reference's latest code, once an attempt of the person and of the code is taken. */
  async verify(purpose: OneTimeCodePurpose, reference: string, guess: string): Promise<CodeCheck> {
    const [latest] = await rawQuery<Latest>(this.dataSource, LATEST_CODE_SQL, [purpose.name, reference]);
    if (!latest) return { outcome: 'unavailable', reason: 'none' };
    const unavailable = (code: Latest): CodeCheck => ({
      outcome: 'unavailable',
      reason: code.consumed_at ? 'used' : code.expired ? 'expired' : 'attempts_used',
    });
    if (latest.consumed_at || latest.expired || latest.attempts >= latest.max_attempts) return unavailable(latest);

    const c = this.config;
    const subjectKey = this.subjectKey(purpose, latest.subject);
    const max = c.OTP_MAX_ATTEMPTS_PER_SUBJECT;
    const person = await this.take(subjectKey, max, c.OTP_ATTEMPT_WINDOW_SECONDS);
    if (person.wait) return { outcome: 'locked', retryAfterSeconds: person.wait };

    const [attempt] = await rawQuery<{ code_hash: string; attempts: number; max_attempts: number }>(
      this.dataSource,
      TAKE_CODE_ATTEMPT_SQL,
      [latest.id],
    );
    if (!attempt) {
      // Used up, used or expired meanwhile (a concurrent guess): nothing was compared.
      await rawQuery(this.dataSource, REFUND_LIMIT_SQL, [subjectKey]);
      const [now] = await rawQuery<Latest>(this.dataSource, LATEST_CODE_SQL, [purpose.name, reference]);
      return unavailable(now ?? latest);
    }
    if (this.matches(attempt.code_hash, this.hash(purpose, reference, guess))) {
      const [consumed] = await rawQuery(this.dataSource, CONSUME_CODE_SQL, [latest.id]);
      if (!consumed) return { outcome: 'unavailable', reason: 'used' };
      await rawQuery(this.dataSource, CLEAR_LIMIT_SQL, [subjectKey]);
      return { outcome: 'accepted', subject: latest.subject };
    }
    const attemptsLeft = attempt.max_attempts - attempt.attempts;
    // The person's last allowed guess was wrong: the lockout starts now, and they are told so now.
    if (person.count >= max) return { outcome: 'locked', retryAfterSeconds: await this.lock(subjectKey), attemptsLeft };
    return { outcome: 'wrong', subject: latest.subject, attemptsLeft };
  }

  /**
   * Counts one event against the key's limit: the count in the window, and when refused the seconds
   * to wait (a lockout under way, or one started now because the limit is used up).
   */
  private async take(key: string, max: number, windowSeconds: number): Promise<{ count: number; wait?: number }> {
    const [row] = await rawQuery<{ count: number; locked_for: number | null }>(this.dataSource, TAKE_LIMIT_SQL, [
      key,
      windowSeconds,
    ]);
    if (row.locked_for && row.locked_for > 0) return { count: row.count, wait: row.locked_for };
    if (row.count <= max) return { count: row.count };
    return { count: row.count, wait: await this.lock(key) };
  }

  private async lock(key: string): Promise<number> {
    const [row] = await rawQuery<{ locked_for: number }>(this.dataSource, LOCK_LIMIT_SQL, [
      key,
      this.config.OTP_LOCKOUT_SECONDS,
      this.config.OTP_MAX_LOCKOUT_SECONDS,
    ]);
    return Math.max(1, row?.locked_for ?? this.config.OTP_LOCKOUT_SECONDS);
  }

  private async lockedFor(key: string): Promise<number | undefined> {
    const [row] = await rawQuery<{ locked_for: number }>(this.dataSource, LOCKED_FOR_SQL, [key]);
    return row?.locked_for;
  }

  private subjectKey(purpose: OneTimeCodePurpose, subject: string): string {
    return `attempts:${purpose.name}:${subject}`;
  }

  private hash(purpose: OneTimeCodePurpose, reference: string, code: string): string {
    return createHmac('sha256', purpose.key).update(`${purpose.name}\n${reference}\n${code}`).digest('base64url');
  }

  private matches(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }

  private async purge(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await rawQuery(this.dataSource, PURGE_CODES_SQL, []);
    await rawQuery(this.dataSource, PURGE_LIMITS_SQL, []);
  }
}
