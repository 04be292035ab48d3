import { countryPermission } from '@kyc/contracts';
import { Caller, Clock, newId, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { AuditLogService, diff, REDACTED } from '../../audit/audit-log.service';
import { RuleSetStore } from '../engine/rule-set.store';
import { RuleEntity } from '../rule.entity';
import { actionNotFound, RuleErrorCode, RuleException, ruleNotFound } from '../rules.exception';
import { ActionEntity } from './action.entity';
import { actionSnapshot } from './action.presenter';
import { ActionConfig, ActionType, CreateCheckConfig, normalizeActionConfig } from './action-config';
import { CreateActionDto } from './dto/create-action.dto';
import { UpdateActionDto } from './dto/update-action.dto';

export const newActionId = () => newId('ACT');
export const MAX_ACTIONS_PER_RULE = 20;

@Injectable()
export class ActionsService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(ActionEntity) private readonly actions: Repository<ActionEntity>,
    @InjectRepository(RuleEntity) private readonly rules: Repository<RuleEntity>,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
    private readonly ruleSet: RuleSetStore,
  ) {}

  async create(caller: Caller, ruleId: string, dto: CreateActionDto): Promise<ActionEntity> {
    const config = this.validConfig(caller, dto.type, dto.config);
    return this.dataSource.transaction(async (m) => {
      await this.lockRule(m, caller, ruleId);
      const n = await m.countBy(ActionEntity, { tenantId: caller.tenantId, ruleId });
      if (n >= MAX_ACTIONS_PER_RULE)
        throw new RuleException(RuleErrorCode.LimitReached, `a rule can have at most ${MAX_ACTIONS_PER_RULE} actions`);
      const now = this.clock.now();
      const action = m.create(ActionEntity, {
        id: newActionId(),
        tenantId: caller.tenantId,
        ruleId,
        name: dto.name,
        type: dto.type,
        status: dto.status ?? 'enabled',
        config,
        createdAt: now,
        updatedAt: now,
      });
      await m.insert(ActionEntity, action);
      await this.ruleSet.bump(m, caller.tenantId);
      await this.audit.record(m, caller, {
        action: 'action.created',
        resourceType: 'action',
        resourceId: action.id,
        changes: { rule_id: { to: ruleId }, ...diff(null, actionSnapshot(action)) },
      });
      return action;
    });
  }

  /** Replaces the fields given (enabled ↔ disabled is a status update); a new type needs its config. */
  async update(caller: Caller, ruleId: string, actionId: string, dto: UpdateActionDto): Promise<ActionEntity> {
    return this.dataSource.transaction(async (m) => {
      const action = await this.lockAction(m, caller, ruleId, actionId);
      const type = dto.type ?? action.type;
      if (type !== action.type && dto.config === undefined) {
        throw new ValidationFailedException([
          { field: 'config', message: `config is required when type changes (the ${type} configuration)` },
        ]);
      }
      const config = dto.config === undefined ? action.config : this.validConfig(caller, type, dto.config);
      const before = actionSnapshot(action);
      const next = { name: dto.name ?? action.name, type, status: dto.status ?? action.status, config };
      let changes = diff(before, actionSnapshot(next));
      if (!Object.keys(changes).length) {
        if (JSON.stringify(config) === JSON.stringify(action.config)) return action;
        changes = { config: { from: REDACTED, to: REDACTED } }; // only redacted header values changed
      }
      Object.assign(action, next, { updatedAt: this.clock.now() });
      await m.update(
        ActionEntity,
        { id: action.id, tenantId: caller.tenantId },
        {
          name: action.name,
          type: action.type,
          status: action.status,
          config: action.config,
          updatedAt: action.updatedAt,
        },
      );
      await this.ruleSet.bump(m, caller.tenantId);
      await this.audit.record(m, caller, {
        action: 'action.updated',
        resourceType: 'action',
        resourceId: action.id,
        changes,
      });
      return action;
    });
  }

  async delete(caller: Caller, ruleId: string, actionId: string): Promise<ActionEntity> {
    return this.dataSource.transaction(async (m) => {
      const action = await this.lockAction(m, caller, ruleId, actionId);
      await m.delete(ActionEntity, { id: action.id, tenantId: caller.tenantId });
      await this.ruleSet.bump(m, caller.tenantId);
      await this.audit.record(m, caller, {
        action: 'action.deleted',
        resourceType: 'action',
        resourceId: action.id,
        changes: { rule_id: { from: ruleId }, ...diff(actionSnapshot(action), null) },
      });
      return action;
    });
  }

  async list(caller: Caller, ruleId: string): Promise<ActionEntity[]> {
    if (!(await this.rules.existsBy({ tenantId: caller.tenantId, id: ruleId }))) throw ruleNotFound(ruleId);
    return this.actions.find({ where: { tenantId: caller.tenantId, ruleId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(caller: Caller, ruleId: string, actionId: string): Promise<ActionEntity> {
    const action = await this.actions.findOneBy({ tenantId: caller.tenantId, ruleId, id: actionId });
    if (!action) {
      if (!(await this.rules.existsBy({ tenantId: caller.tenantId, id: ruleId }))) throw ruleNotFound(ruleId);
      throw actionNotFound(actionId);
    }
    return action;
  }

  /**
   * The normalized configuration, or 400 naming every bad field. A create_check action needs the
   * permission to run checks of its country, as POST /v1/checks would (403 otherwise).
   */
  private validConfig(caller: Caller, type: ActionType, raw: unknown): ActionConfig {
    const { config, errors } = normalizeActionConfig(type, raw);
    if (errors.length) throw new ValidationFailedException(errors);
    if (type === 'create_check') {
      const perm = countryPermission((config as CreateCheckConfig).country);
      caller.requireAny(...(perm ? [perm] : []), 'checks.country_all');
    }
    return config;
  }

  private async lockRule(m: EntityManager, caller: Caller, ruleId: string): Promise<void> {
    const rule = await m
      .getRepository(RuleEntity)
      .createQueryBuilder('r')
      .select('r.id')
      .setLock('pessimistic_write')
      .where('r.id = :id AND r.tenantId = :tenant', { id: ruleId, tenant: caller.tenantId })
      .getOne();
    if (!rule) throw ruleNotFound(ruleId);
  }

  private async lockAction(m: EntityManager, caller: Caller, ruleId: string, actionId: string): Promise<ActionEntity> {
    const action = await m
      .getRepository(ActionEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.id = :id AND a.tenantId = :tenant AND a.ruleId = :rule', {
        id: actionId,
        tenant: caller.tenantId,
        rule: ruleId,
      })
      .getOne();
    if (!action) {
      if (!(await m.getRepository(RuleEntity).existsBy({ tenantId: caller.tenantId, id: ruleId })))
        throw ruleNotFound(ruleId);
      throw actionNotFound(actionId);
    }
    return action;
  }
}
