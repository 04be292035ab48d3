import { randomUUID } from 'node:crypto';

import { Caller, Clock, newId, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { AuditLogService, diff } from '../audit/audit-log.service';
import { ActionEntity } from './actions/action.entity';
import { CreateRuleDto } from './dto/create-rule.dto';
import { parseCondition } from './dto/json-logic-condition';
import { PageQuery } from './dto/list-rules.query';
import { UpdateRuleDto } from './dto/update-rule.dto';
import { RuleSetStore } from './engine/rule-set.store';
import { RuleEntity } from './rule.entity';
import { ruleSnapshot } from './rule.presenter';
import { RuleVersionEntity } from './rule-version.entity';
import { RuleErrorCode, RuleException, ruleNotFound } from './rules.exception';

export const newRuleId = () => newId('RUL');
export const MAX_RULES_PER_TENANT = 5_000;

@Injectable()
export class RulesService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(RuleEntity) private readonly rules: Repository<RuleEntity>,
    @InjectRepository(RuleVersionEntity) private readonly versions: Repository<RuleVersionEntity>,
    @InjectRepository(ActionEntity) private readonly actions: Repository<ActionEntity>,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
    private readonly ruleSet: RuleSetStore,
  ) {}

  /** Stores the rule as version 1 (the condition was validated as JSON-Logic by the DTO). */
  async create(caller: Caller, dto: CreateRuleDto): Promise<RuleEntity> {
    return this.dataSource.transaction(async (m) => {
      const n = await m.countBy(RuleEntity, { tenantId: caller.tenantId });
      if (n >= MAX_RULES_PER_TENANT)
        throw new RuleException(RuleErrorCode.LimitReached, `a tenant can have at most ${MAX_RULES_PER_TENANT} rules`);
      const now = this.clock.now();
      const rule = m.create(RuleEntity, {
        id: newRuleId(),
        tenantId: caller.tenantId,
        name: dto.name,
        eventType: dto.event_type,
        condition: parseCondition(dto.condition),
        version: 1,
        createdBy: caller.userId,
        updatedBy: caller.userId,
        createdAt: now,
        updatedAt: now,
      });
      await m.insert(RuleEntity, rule as RuleEntity & { condition: object });
      await this.saveVersion(m, rule, caller);
      await this.ruleSet.bump(m, caller.tenantId);
      await this.audit.record(m, caller, {
        action: 'rule.created',
        resourceType: 'rule',
        resourceId: rule.id,
        changes: diff(null, ruleSnapshot(rule)),
      });
      return rule;
    });
  }

  /** Replaces the fields given; a real change makes a new version (the old ones stay readable). */
  async update(caller: Caller, ruleId: string, dto: UpdateRuleDto): Promise<RuleEntity> {
    return this.dataSource.transaction(async (m) => {
      const rule = await this.lock(m, caller, ruleId);
      const before = ruleSnapshot(rule);
      const next = {
        name: dto.name ?? rule.name,
        eventType: dto.event_type ?? rule.eventType,
        condition: dto.condition === undefined ? rule.condition : parseCondition(dto.condition),
      };
      const changes = diff(before, { ...ruleSnapshot({ ...rule, ...next }), version: rule.version });
      if (!Object.keys(changes).length) return rule;
      Object.assign(rule, next, { version: rule.version + 1, updatedBy: caller.userId, updatedAt: this.clock.now() });
      await m.update(
        RuleEntity,
        { id: rule.id, tenantId: caller.tenantId },
        {
          name: rule.name,
          eventType: rule.eventType,
          condition: rule.condition as object,
          version: rule.version,
          updatedBy: rule.updatedBy,
          updatedAt: rule.updatedAt,
        },
      );
      await this.saveVersion(m, rule, caller);
      await this.ruleSet.bump(m, caller.tenantId);
      await this.audit.record(m, caller, {
        action: 'rule.updated',
        resourceType: 'rule',
        resourceId: rule.id,
        changes: diff(before, ruleSnapshot(rule)),
      });
      return rule;
    });
  }

  /** Deletes the rule with its actions and their env vars; its versions and executions stay. */
  async delete(caller: Caller, ruleId: string): Promise<RuleEntity> {
    return this.dataSource.transaction(async (m) => {
      const rule = await this.lock(m, caller, ruleId);
      const actions = await m.findBy(ActionEntity, { tenantId: caller.tenantId, ruleId });
      await m.delete(RuleEntity, { id: rule.id, tenantId: caller.tenantId });
      await this.ruleSet.bump(m, caller.tenantId);
      await this.audit.record(m, caller, {
        action: 'rule.deleted',
        resourceType: 'rule',
        resourceId: rule.id,
        changes: {
          ...diff(ruleSnapshot(rule), null),
          ...(actions.length ? { actions_deleted: actions.map((a) => a.id) } : {}),
        },
      });
      return rule;
    });
  }

  async get(caller: Caller, ruleId: string): Promise<{ rule: RuleEntity; actions: ActionEntity[] }> {
    const rule = await this.rules.findOneBy({ tenantId: caller.tenantId, id: ruleId });
    if (!rule) throw ruleNotFound(ruleId);
    const actions = await this.actions.find({
      where: { tenantId: caller.tenantId, ruleId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return { rule, actions };
  }

  /** Throws 404 unless the rule exists for the caller's tenant. */
  async assertExists(caller: Caller, ruleId: string): Promise<void> {
    if (!(await this.rules.existsBy({ tenantId: caller.tenantId, id: ruleId }))) throw ruleNotFound(ruleId);
  }

  list(caller: Caller, query: PageQuery): Promise<Page<RuleEntity>> {
    const qb = this.rules.createQueryBuilder('r').where('r.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? 50 });
  }

  async listVersions(caller: Caller, ruleId: string, query: PageQuery): Promise<Page<RuleVersionEntity>> {
    await this.assertExists(caller, ruleId);
    const qb = this.versions
      .createQueryBuilder('v')
      .where('v.tenantId = :tenant AND v.ruleId = :rule', { tenant: caller.tenantId, rule: ruleId });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? 50 });
  }

  async getVersion(caller: Caller, ruleId: string, version: number): Promise<RuleVersionEntity> {
    await this.assertExists(caller, ruleId);
    const found = Number.isInteger(version)
      ? await this.versions.findOneBy({ tenantId: caller.tenantId, ruleId, version })
      : null;
    if (!found) throw new RuleException(RuleErrorCode.RuleVersionNotFound, `rule ${ruleId} has no version ${version}`);
    return found;
  }

  private async lock(m: EntityManager, caller: Caller, ruleId: string): Promise<RuleEntity> {
    const rule = await m
      .getRepository(RuleEntity)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.id = :id AND r.tenantId = :tenant', { id: ruleId, tenant: caller.tenantId })
      .getOne();
    if (!rule) throw ruleNotFound(ruleId);
    return rule;
  }

  private async saveVersion(m: EntityManager, rule: RuleEntity, caller: Caller): Promise<void> {
    await m.insert(RuleVersionEntity, {
      id: randomUUID(),
      tenantId: rule.tenantId,
      ruleId: rule.id,
      version: rule.version,
      name: rule.name,
      eventType: rule.eventType,
      condition: rule.condition as object,
      createdBy: caller.userId,
      createdAt: rule.updatedAt,
    });
  }
}
