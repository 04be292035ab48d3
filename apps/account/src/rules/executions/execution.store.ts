import type { CheckFinishedPayload } from '@kyc/contracts';
import { rawQuery, writeQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import type { ActionEntity } from '../actions/action.entity';
import type { EnvRow } from '../envs/envs.service';
import type { ExecutionEntity, ExecutionOutcome } from './execution.entity';
import * as SQL from './execution.sql';

/** An execution row as CLAIM_RUN returns it (database column names). */
export interface ExecutionRow {
  id: string;
  tenant_id: string;
  rule_id: string;
  rule_version: ExecutionEntity['ruleVersion'];
  action_id: string;
  action_type: ExecutionEntity['actionType'];
  event_id: string;
  check_id: ExecutionEntity['checkId'];
  depth: number;
  outcome: ExecutionEntity['outcome'];
  attempts: number;
  response_status: ExecutionEntity['responseStatus'];
  error: ExecutionEntity['error'];
  created_check_id: ExecutionEntity['createdCheckId'];
  created_at: Date;
  started_at: ExecutionEntity['startedAt'];
  finished_at: ExecutionEntity['finishedAt'];
  updated_at: Date;
}

/** CLAIM_RUN's row: the execution, its action (a_*), the finished check's event (f_*), envs and signing secret. */
export interface OpenRow extends ExecutionRow {
  a_id: string | null;
  a_rule_id: string;
  a_name: ActionEntity['name'];
  a_type: ActionEntity['type'];
  a_status: ActionEntity['status'];
  a_config: ActionEntity['config'];
  a_created_at: Date;
  a_updated_at: Date;
  f_tenant_id: string | null;
  f_payload: CheckFinishedPayload | null;
  envs: EnvRow[];
  sealed_secret: string | null;
  sealed_previous_secret: string | null;
  previous_valid_until: Date | null;
}

/** The runs' statements on bre_executions: claiming an attempt, recording its outcome and the check it created. */
@Injectable()
export class ExecutionStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims the execution for this attempt with what the run needs; undefined when it is settled or gone. */
  async claimRun(
    manager: EntityManager,
    executionId: string,
    tenantId: string,
    attempt: number,
  ): Promise<OpenRow | undefined> {
    return (await rawQuery<OpenRow>(this.dataSource, SQL.CLAIM_RUN, [executionId, tenantId, attempt], manager))[0];
  }

  async linkCreatedCheck(tenantId: string, executionId: string, checkId: string): Promise<void> {
    await rawQuery(this.dataSource, SQL.LINK_CREATED_CHECK, [executionId, tenantId, checkId]);
  }

  async settle(
    manager: EntityManager | null,
    execution: Pick<ExecutionEntity, 'id' | 'tenantId'>,
    outcome: ExecutionOutcome,
    responseStatus: number | null,
    error: string | null,
  ): Promise<void> {
    await writeQuery(
      this.dataSource,
      SQL.SETTLE,
      [execution.id, execution.tenantId, outcome, responseStatus, error],
      manager ?? this.dataSource.manager,
    );
  }
}
