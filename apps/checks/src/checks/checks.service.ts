import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { BUILT_IN_CHECK_TYPES, CHECK_EVENT_TYPES, CheckCreatedPayload, countryPermission, TOPICS } from '@kyc/contracts';
import { Caller, canonicalJson, OutboxService, Page, paginate } from '@kyc/platform';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from './check.entity';
import { checkRecord } from './check.presenter';
import { CheckErrorCode, CheckException } from './checks.exception';
import { CHECK_INPUT_FIELDS, CreateCheckDto } from './dto/create-check.dto';
import { ListChecksQuery } from './dto/list-checks.query';

export const newCheckId = () => `CHK${randomUUID().replace(/-/g, '')}`;
const PAGE_SIZE = 20;

@Injectable()
export class ChecksService {
  constructor(
    @InjectRepository(CheckEntity) private readonly checks: Repository<CheckEntity>,
    private readonly outbox: OutboxService,
    private readonly config: ChecksConfig,
  ) {}

  /**
   * Stores a check and queues it. A check with identical inputs created within the
   * de-duplication window is returned instead, unless force_creation is true. The insert, the
   * de-duplication lookup and the `checks.check.created` outbox row are one SQL statement, so
   * they commit together in one round trip.
   */
  async create(caller: Caller, dto: CreateCheckDto): Promise<{ check: CheckEntity; created: boolean }> {
    this.assertAuthorized(caller, dto);
    const perm = countryPermission(dto.country);
    caller.requireAny(...(perm ? [perm] : []), 'checks.country_all');
    if (!(BUILT_IN_CHECK_TYPES as readonly string[]).includes(dto.type)) {
      throw new CheckException(CheckErrorCode.UnknownCheckType, `type ${dto.type} is not a check type of this account`, [{ field: 'type', message: 'unknown check type' }]);
    }

    const inputs: Record<string, string> = {};
    for (const field of CHECK_INPUT_FIELDS) if (dto[field] !== undefined) inputs[field] = dto[field] as string;
    const now = new Date();
    const check = this.checks.create({
      id: newCheckId(),
      tenantId: caller.tenantId,
      country: dto.country,
      type: dto.type,
      status: 'not_started',
      inputs,
      inputHash: createHash('sha256').update(canonicalJson({ country: dto.country, type: dto.type, inputs, custom_input: dto.custom_input ?? null })).digest('hex'),
      customInput: dto.custom_input ?? null,
      reportId: dto.report_id ?? null,
      userAuthorized: dto.user_authorized === true,
      score: -1,
      idScore: -1,
      homonymScore: -1,
      createdBy: caller.userId,
      createdAt: now,
      updatedAt: now,
    });
    const event = this.outbox.row<CheckCreatedPayload>({
      topic: TOPICS.checkCreated,
      type: CHECK_EVENT_TYPES.created,
      tenantId: caller.tenantId,
      aggregateId: check.id,
      payload: { check: checkRecord(check) },
    });
    const [result] = await this.checks.query(
      `WITH recent AS (
         SELECT id FROM checks
          WHERE tenant_id = $1 AND input_hash = $2 AND NOT $4::boolean AND created_at > $13::timestamptz - ($3 * interval '1 second')
          ORDER BY created_at DESC LIMIT 1
       ), ins AS (
         INSERT INTO checks (id, tenant_id, country, type, status, inputs, input_hash, custom_input, report_id, user_authorized, created_by, created_at, updated_at)
         SELECT $5, $1, $6, $7, 'not_started', $8::jsonb, $2, $9, $10, $11, $12, $13, $13 WHERE NOT EXISTS (SELECT 1 FROM recent)
         RETURNING id
       ), evt AS (
         INSERT INTO outbox (id, topic, message_key, type, tenant_id, envelope) SELECT $14, $15, id, $16, $1, $17::jsonb FROM ins
       )
       SELECT id, true AS created FROM ins UNION ALL SELECT id, false AS created FROM recent`,
      [
        check.tenantId,
        check.inputHash,
        this.config.CHECKS_DEDUP_WINDOW_SECONDS,
        dto.force_creation === true,
        check.id,
        check.country,
        check.type,
        JSON.stringify(check.inputs),
        check.customInput,
        check.reportId,
        check.userAuthorized,
        check.createdBy,
        now,
        event.id,
        event.topic,
        event.type,
        JSON.stringify(event.envelope),
      ],
    );
    if (result.created) {
      this.outbox.committed();
      return { check, created: true };
    }
    return { check: await this.get(caller, result.id), created: false };
  }

  async get(caller: Caller, checkId: string): Promise<CheckEntity> {
    const check = await this.checks.findOneBy({ tenantId: caller.tenantId, id: checkId });
    if (!check) throw new CheckException(CheckErrorCode.CheckNotFound, `check ${checkId} not found`);
    return check;
  }

  list(caller: Caller, query: ListChecksQuery): Promise<Page<CheckEntity>> {
    const qb = this.checks.createQueryBuilder('c').where('c.tenantId = :tenant', { tenant: caller.tenantId });
    if (query.report_id) qb.andWhere('c.reportId = :report', { report: query.report_id });
    return paginate(qb, { startKey: query.start_key, limit: PAGE_SIZE });
  }

  /** user_authorized must be true when given, and is required from API key version 1 on. */
  private assertAuthorized(caller: Caller, dto: CreateCheckDto) {
    if (dto.user_authorized === false || (dto.user_authorized === undefined && caller.keyVersion >= 1)) {
      throw new CheckException(CheckErrorCode.UserNotAuthorized, 'The person must authorize the check: user_authorized must be true', [
        { field: 'user_authorized', message: 'user_authorized must be true' },
      ]);
    }
  }
}
