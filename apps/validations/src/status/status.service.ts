import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ValidationsConfig } from '../config/validations.config';
import { OtpMailer } from '../otp/mailer';
import { ValidationEntity } from '../validations/validation.entity';

const WINDOW_MS = 15 * 60_000;
/** An engine backlog older than this makes its validator degraded. */
const LAG_DEGRADED_MS = 60_000;

type State = 'operational' | 'degraded' | 'down';

/**
 * GET /v1/status from the service's real state: the database answers, each validator's last 15
 * minutes (finished, system errors), the engine backlog (validations whose media are in and wait
 * for the engine), the e-mail transport and the phone provider.
 */
@Injectable()
export class StatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly mailer: OtpMailer,
    private readonly config: ValidationsConfig,
    private readonly clock: Clock,
  ) {}

  async status() {
    const now = this.clock.now();
    const started = Date.now();
    let rows: { type: string; finished: string; system_errors: string; oldest_waiting: Date | null }[] = [];
    let database: State = 'operational';
    try {
      rows = await this.dataSource
        .getRepository(ValidationEntity)
        .createQueryBuilder('v')
        .select('v.type', 'type')
        .addSelect('count(*) FILTER (WHERE v.finished_at >= :since)', 'finished')
        .addSelect(
          "count(*) FILTER (WHERE v.finished_at >= :since AND v.failure_status = 'system_error')",
          'system_errors',
        )
        .addSelect(
          "min(v.media_complete_at) FILTER (WHERE v.status = 'pending' AND v.media_complete_at IS NOT NULL AND v.manual_review_status <> 'pending')",
          'oldest_waiting',
        )
        .where("(v.finished_at >= :since OR v.status = 'pending') AND v.deleted_at IS NULL", {
          since: new Date(now.getTime() - WINDOW_MS),
        })
        .groupBy('v.type')
        .getRawMany();
    } catch {
      database = 'down';
    }
    const dbMs = Date.now() - started;
    const byType = new Map(rows.map((r) => [r.type, r]));
    const validator = (type: string, extra: { down?: string; component: string }) => {
      const r = byType.get(type);
      const finished = Number(r?.finished ?? 0);
      const errors = Number(r?.system_errors ?? 0);
      const lagMs = r?.oldest_waiting ? Math.max(0, now.getTime() - new Date(r.oldest_waiting).getTime()) : 0;
      const reasons: string[] = [];
      if (extra.down) reasons.push(extra.down);
      if (finished >= 5 && errors / finished >= 0.2)
        reasons.push(`${errors} of ${finished} recent validations failed on a system error`);
      if (lagMs > LAG_DEGRADED_MS) reasons.push(`the engine backlog is ${Math.round(lagMs / 1000)} s old`);
      const state: State = database === 'down' || extra.down ? 'down' : reasons.length ? 'degraded' : 'operational';
      return {
        name: type,
        status: state,
        component: extra.component,
        finished_last_15_minutes: finished,
        system_errors_last_15_minutes: errors,
        backlog_age_seconds: Math.round(lagMs / 1000),
        ...(reasons.length ? { reasons } : {}),
      };
    };
    const validators = [
      validator('document-validation', { component: 'document engine (OCR, MRZ, ID numbers)' }),
      validator('face-recognition', { component: 'face engine (detection, descriptors, liveness)' }),
      validator('face-search', { component: 'face engine and blocklist' }),
      validator('email-verification', {
        component: 'SMTP',
        down: this.mailer.configured ? undefined : 'e-mail is not configured (VALIDATIONS_SMTP_URL)',
      }),
      validator('phone-verification', { component: `phone provider (${this.config.VALIDATIONS_PHONE_PROVIDER})` }),
    ];
    const overall: State =
      database === 'down' ? 'down' : validators.some((v) => v.status !== 'operational') ? 'degraded' : 'operational';
    return {
      status: overall,
      checked_at: now.toISOString(),
      database: { status: database, response_ms: dbMs },
      manual_review: { available: this.config.reviewAvailableAt(now) },
      services: validators,
    };
  }
}
