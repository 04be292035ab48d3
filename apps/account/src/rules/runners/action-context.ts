import { CheckFinishedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';
import { Job } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { ActionEntity } from '../actions/action.entity';
import { ActionJobPayload } from '../engine/action-queues';
import { checkVariables } from '../engine/check-variables';
import { EnvsService, ResolvedEnv } from '../envs/envs.service';
import { ExecutionEntity } from '../executions/execution.entity';
import { ExecutionRow } from '../executions/execution.store';
import { ExecutionsService } from '../executions/executions.service';
import { SigningSecretEntity } from '../signing/signing-secret.entity';
import { TemplateScope } from '../templates/template';

/** Everything an action run needs, read when it runs (the action's current config and env vars). */
export interface ActionRun {
  execution: ExecutionEntity;
  action: ActionEntity;
  variables: Record<string, unknown>;
  env: ResolvedEnv;
  scope: TemplateScope;
  /** The tenant's signing-secret row (null before the tenant's first one exists). */
  signing: Pick<SigningSecretEntity, 'sealedSecret' | 'sealedPreviousSecret' | 'previousValidUntil'> | null;
  attempt: number;
  /** No retry follows this attempt. */
  final: boolean;
}

/** Replaces secret env values in text that may reach the execution record or a log. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join('[secret]');
  return out;
}

function executionOf(r: ExecutionRow): ExecutionEntity {
  return Object.assign(new ExecutionEntity(), {
    id: r.id,
    tenantId: r.tenant_id,
    ruleId: r.rule_id,
    ruleVersion: r.rule_version,
    actionId: r.action_id,
    actionType: r.action_type,
    eventId: r.event_id,
    checkId: r.check_id,
    depth: r.depth,
    outcome: r.outcome,
    attempts: r.attempts,
    responseStatus: r.response_status,
    error: r.error,
    createdCheckId: r.created_check_id,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
  });
}

@Injectable()
export class ActionRunContext {
  constructor(
    private readonly executions: ExecutionsService,
    private readonly envs: EnvsService,
  ) {}

  /**
   * Opens an attempt: null when there is nothing (more) to do: already settled, or the action was
   * deleted or disabled meanwhile (recorded as skipped), or the event is gone (recorded as failed).
   */
  async open(manager: EntityManager, job: Job<ActionJobPayload>): Promise<ActionRun | null> {
    const tenantId = job.tenantId ?? '';
    const row = await this.executions.claimRun(manager, job.payload.execution_id, tenantId, job.attempt);
    if (!row) return null;
    const execution = executionOf(row);
    if (!row.a_id || row.a_status !== 'enabled') {
      await this.executions.settle(manager, execution, 'skipped', {
        error: row.a_id ? 'the action was disabled before it ran' : 'the action was deleted before it ran',
      });
      return null;
    }
    if (!row.f_payload) {
      await this.executions.settle(manager, execution, 'failed', {
        error: 'the event that fired the rule is no longer stored',
      });
      return null;
    }
    const action = Object.assign(new ActionEntity(), {
      id: row.a_id,
      tenantId,
      ruleId: row.a_rule_id,
      name: row.a_name,
      type: row.a_type,
      status: row.a_status,
      config: row.a_config,
      createdAt: row.a_created_at,
      updatedAt: row.a_updated_at,
    });
    const event = {
      id: execution.eventId,
      type: TOPICS.checkFinished,
      tenant_id: row.f_tenant_id,
      payload: row.f_payload,
    } as EventEnvelope<CheckFinishedPayload>;
    const variables = checkVariables(event);
    const env = this.envs.open(tenantId, action.id, row.envs);
    const signing = row.sealed_secret
      ? {
          sealedSecret: row.sealed_secret,
          sealedPreviousSecret: row.sealed_previous_secret,
          previousValidUntil: row.previous_valid_until,
        }
      : null;
    return {
      execution,
      action,
      variables,
      env,
      scope: { variables, env: env.values },
      signing,
      attempt: job.attempt,
      final: job.attempt >= job.maxAttempts,
    };
  }
}
