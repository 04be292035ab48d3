import type { CheckFinishedPayload } from '@kyc/contracts';
import { OutboxRow, OutboxService } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import type { CheckEntity } from './check.entity';
import type { CheckFinishedExtension } from './engine.types';
import { finishCheck } from './settlement';

/**
 * The `checks.check.finished` events of finishing checks (finishCheck) with the fields of the
 * CheckFinishedExtensions that apply (continuous checks add their run), as the outbox rows the
 * finishing statement writes.
 */
@Injectable()
export class FinishedEvents {
  private readonly logger = new Logger('check-engine');
  private readonly extensions: { extend: CheckFinishedExtension; appliesTo?: (check: CheckEntity) => boolean }[] = [];

  constructor(private readonly outbox: OutboxService) {}

  /**
   * Registers a CheckFinishedExtension (called once per finishing check, in its transaction).
   * `appliesTo` tells which checks it may extend (default: all): the start job finishes the others
   * in a grouped statement, without calling out to extensions.
   */
  extend(extension: CheckFinishedExtension, appliesTo?: (check: CheckEntity) => boolean): void {
    this.extensions.push({ extend: extension, appliesTo });
  }

  /** Whether a CheckFinishedExtension applies to this check (its finish then needs a transaction). */
  extended(check: CheckEntity): boolean {
    return this.extensions.some((e) => !e.appliesTo || e.appliesTo(check));
  }

  /** The finished event of a check without extensions (see extended), as its outbox row. */
  plain(check: CheckEntity): OutboxRow {
    return this.outbox.row(finishCheck(check));
  }

  /** The outbox rows of a settled check: its finished event with the extensions' fields when it finished, else none. */
  async of(m: EntityManager, check: CheckEntity, finished: boolean): Promise<OutboxRow[]> {
    if (!finished) return [];
    const extra: Partial<CheckFinishedPayload> = {};
    for (const { extend, appliesTo } of this.extensions)
      if (!appliesTo || appliesTo(check)) Object.assign(extra, await extend(m, check));
    return [this.outbox.row(finishCheck(check, extra))];
  }

  /** Logs a check whose finish was written. */
  written(check: CheckEntity): void {
    this.logger.log({
      msg: 'check finished',
      check_id: check.id,
      tenant_id: check.tenantId,
      status: check.status,
      score: check.score,
    });
  }
}
