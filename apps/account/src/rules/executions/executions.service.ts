import { Caller, newId, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { RuleEntity } from '../rule.entity';
import { RuleErrorCode, RuleException, ruleNotFound } from '../rules.exception';
import { ListExecutionsQuery } from './dto/list-executions.query';
import { ExecutionEntity, ExecutionOutcome } from './execution.entity';
import { ExecutionStore, OpenRow } from './execution.store';

export const newExecutionId = () => newId('EXE');
const MAX_ERROR_CHARS = 2_000;

/** Reading executions (tenant API) and recording their progress (action runners). */
@Injectable()
export class ExecutionsService {
  constructor(
    private readonly store: ExecutionStore,
    @InjectRepository(ExecutionEntity) private readonly executions: Repository<ExecutionEntity>,
    @InjectRepository(RuleEntity) private readonly rules: Repository<RuleEntity>,
  ) {}

  /** The executions of an existing rule (404 for a rule that does not exist; use the filter for deleted ones). */
  async listOfRule(caller: Caller, ruleId: string, query: ListExecutionsQuery): Promise<Page<ExecutionEntity>> {
    if (!(await this.rules.existsBy({ tenantId: caller.tenantId, id: ruleId }))) throw ruleNotFound(ruleId);
    return this.list(caller, query, ruleId);
  }

  list(caller: Caller, query: ListExecutionsQuery, ruleId = query.rule_id): Promise<Page<ExecutionEntity>> {
    const qb = this.executions.createQueryBuilder('e').where('e.tenantId = :tenant', { tenant: caller.tenantId });
    if (ruleId) qb.andWhere('e.ruleId = :rule', { rule: ruleId });
    if (query.action_id) qb.andWhere('e.actionId = :action', { action: query.action_id });
    if (query.outcome) qb.andWhere('e.outcome = :outcome', { outcome: query.outcome });
    if (query.check_id) qb.andWhere('e.checkId = :check', { check: query.check_id });
    if (query.event_id) qb.andWhere('e.eventId = :event', { event: query.event_id });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? 50 });
  }

  async get(caller: Caller, executionId: string): Promise<ExecutionEntity> {
    const found = await this.executions.findOneBy({ tenantId: caller.tenantId, id: executionId });
    if (!found) throw new RuleException(RuleErrorCode.ExecutionNotFound, `execution ${executionId} not found`);
    return found;
  }

  /** Records the check a create_check execution led to (idempotent). */
  async linkCreatedCheck(tenantId: string, executionId: string, checkId: string): Promise<void> {
    await this.store.linkCreatedCheck(tenantId, executionId, checkId);
  }

  /** Claims the execution for a run's attempt, with what the run needs (see ExecutionStore.claimRun). */
  claimRun(
    manager: EntityManager,
    executionId: string,
    tenantId: string,
    attempt: number,
  ): Promise<OpenRow | undefined> {
    return this.store.claimRun(manager, executionId, tenantId, attempt);
  }

  /** Records the result of an attempt; `retrying` leaves the execution open for the next one. */
  async settle(
    manager: EntityManager | null,
    execution: Pick<ExecutionEntity, 'id' | 'tenantId'>,
    outcome: Exclude<ExecutionOutcome, 'pending' | 'running'>,
    details: { responseStatus?: number | null; error?: string | null } = {},
  ): Promise<void> {
    const error = details.error ? details.error.slice(0, MAX_ERROR_CHARS) : null;
    await this.store.settle(manager, execution, outcome, details.responseStatus ?? null, error);
  }
}
