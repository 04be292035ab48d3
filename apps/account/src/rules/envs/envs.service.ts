import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { AuditLogService, diff } from '../../audit/audit-log.service';
import { ActionEntity } from '../actions/action.entity';
import { RuleEntity } from '../rule.entity';
import { actionNotFound, RuleErrorCode, RuleException, ruleNotFound } from '../rules.exception';
import { SecretBox } from '../secrets/secret-box';
import { ActionEnvEntity } from './action-env.entity';
import { SetEnvDto } from './dto/set-env.dto';

export const MAX_ENVS_PER_ACTION = 50;

/** The values an action's templates see, and the secret ones among them (to keep them out of errors). */
export interface ResolvedEnv {
  values: Record<string, string>;
  secrets: string[];
}

const sealAad = (tenantId: string, actionId: string, name: string) => `${tenantId}/${actionId}/${name}`;

/** An env var row as SQL returns it. */
export interface EnvRow {
  name: string;
  is_secret: boolean;
  value: string | null;
  sealed_value: string | null;
}

@Injectable()
export class EnvsService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(ActionEnvEntity) private readonly envs: Repository<ActionEnvEntity>,
    private readonly box: SecretBox,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  async set(
    caller: Caller,
    ruleId: string,
    actionId: string,
    dto: SetEnvDto,
  ): Promise<{ env: ActionEnvEntity; created: boolean }> {
    const isSecret = dto.is_secret === true;
    return this.dataSource.transaction(async (m) => {
      await this.lockAction(m, caller, ruleId, actionId);
      const existing = await m.findOneBy(ActionEnvEntity, { actionId, name: dto.name });
      if (!existing) {
        const n = await m.countBy(ActionEnvEntity, { actionId });
        if (n >= MAX_ENVS_PER_ACTION)
          throw new RuleException(
            RuleErrorCode.LimitReached,
            `an action can have at most ${MAX_ENVS_PER_ACTION} env vars`,
          );
      }
      const now = this.clock.now();
      const env = m.create(ActionEnvEntity, {
        actionId,
        name: dto.name,
        tenantId: caller.tenantId,
        isSecret,
        value: isSecret ? null : dto.value,
        sealedValue: isSecret ? this.box.seal(dto.value, sealAad(caller.tenantId, actionId, dto.name)) : null,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      });
      await m.save(ActionEnvEntity, env);
      const anySecret = isSecret || existing?.isSecret === true;
      const snapshot = (e: ActionEnvEntity | null) =>
        e
          ? { action_id: e.actionId, name: e.name, is_secret: e.isSecret, value: e.isSecret ? e.sealedValue : e.value }
          : null;
      const changes = diff(snapshot(existing), snapshot(env), anySecret ? ['value'] : []);
      await this.audit.record(m, caller, {
        action: existing ? 'env.updated' : 'env.created',
        resourceType: 'env',
        resourceId: `${actionId}/${dto.name}`,
        changes,
      });
      return { env, created: !existing };
    });
  }

  async list(caller: Caller, ruleId: string, actionId: string): Promise<ActionEnvEntity[]> {
    await this.lockAction(this.dataSource.manager, caller, ruleId, actionId, false);
    return this.envs.find({ where: { tenantId: caller.tenantId, actionId }, order: { name: 'ASC' } });
  }

  async delete(caller: Caller, ruleId: string, actionId: string, name: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await this.lockAction(m, caller, ruleId, actionId);
      const env = await m.findOneBy(ActionEnvEntity, { actionId, name, tenantId: caller.tenantId });
      if (!env) throw new RuleException(RuleErrorCode.EnvNotFound, `env var ${name} not found`);
      await m.delete(ActionEnvEntity, { actionId, name });
      await this.audit.record(m, caller, {
        action: 'env.deleted',
        resourceType: 'env',
        resourceId: `${actionId}/${name}`,
        changes: diff({ name, is_secret: env.isSecret, value: env.value }, null, env.isSecret ? ['value'] : []),
      });
    });
  }

  /** Every env var of an action with its value (secrets opened), for rendering its templates. */
  async resolve(
    tenantId: string,
    actionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ResolvedEnv> {
    const rows = await manager.findBy(ActionEnvEntity, { tenantId, actionId });
    return this.open(
      tenantId,
      actionId,
      rows.map((r) => ({ name: r.name, is_secret: r.isSecret, value: r.value, sealed_value: r.sealedValue })),
    );
  }

  /** Opens env var rows read elsewhere (e.g. with the execution they belong to). */
  open(tenantId: string, actionId: string, rows: readonly EnvRow[]): ResolvedEnv {
    const values: Record<string, string> = {};
    const secrets: string[] = [];
    for (const row of rows) {
      if (row.is_secret) {
        values[row.name] = this.box.open(row.sealed_value ?? '', sealAad(tenantId, actionId, row.name));
        secrets.push(values[row.name]);
      } else values[row.name] = row.value ?? '';
    }
    return { values, secrets };
  }

  private async lockAction(
    m: EntityManager,
    caller: Caller,
    ruleId: string,
    actionId: string,
    lock = true,
  ): Promise<void> {
    const query = m
      .getRepository(ActionEntity)
      .createQueryBuilder('a')
      .select('a.id')
      .where('a.id = :id AND a.tenantId = :tenant AND a.ruleId = :rule', {
        id: actionId,
        tenant: caller.tenantId,
        rule: ruleId,
      });
    if (lock) query.setLock('pessimistic_write');
    if (await query.getOne()) return;
    if (!(await m.getRepository(RuleEntity).existsBy({ tenantId: caller.tenantId, id: ruleId })))
      throw ruleNotFound(ruleId);
    throw actionNotFound(actionId);
  }
}

/** An env var as the API shows it: a secret's value never leaves the service. */
export function presentEnv(e: ActionEnvEntity) {
  return {
    name: e.name,
    is_secret: e.isSecret,
    ...(e.isSecret ? {} : { value: e.value }),
    creation_date: e.createdAt.toISOString(),
    update_date: e.updatedAt.toISOString(),
  };
}
