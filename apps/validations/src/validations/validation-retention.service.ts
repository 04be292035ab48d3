import { Caller, Clock, JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ValidationsConfig } from '../config/validations.config';
import { MediaService } from '../media/media.service';
import { ValidationEntity } from './validation.entity';
import { PURGE_QUEUE } from './validation-queues';
import { ValidationStateService } from './validation-state.service';
import { ValidationErrorCode, ValidationException } from './validations.exception';

/**
 * DELETE and restore: a deleted validation is hidden at once (reads, media links); its data and
 * media are purged by a job after VALIDATIONS_RESTORE_DAYS, unless it was restored meanwhile.
 */
@Injectable()
export class ValidationRetentionService implements OnModuleInit {
  constructor(
    private readonly media: MediaService,
    private readonly state: ValidationStateService,
    private readonly jobs: JobQueueService,
    private readonly config: ValidationsConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.register<{ validation_id: string }>(PURGE_QUEUE, (job, m) => this.purge(m, job.payload.validation_id), {
      transactional: true,
      concurrency: 1,
    });
  }

  async remove(caller: Caller, id: string): Promise<void> {
    await this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id, caller.tenantId);
      if (!v || v.deletedAt)
        throw new ValidationException(ValidationErrorCode.ValidationNotFound, `validation ${id} not found`);
      const now = this.clock.now();
      await m.getRepository(ValidationEntity).update({ id }, { deletedAt: now, updatedAt: now });
      if (this.config.VALIDATIONS_RESTORE_DAYS === 0) return this.purge(m, id);
      await this.jobs.enqueue(
        m,
        PURGE_QUEUE,
        { validation_id: id },
        {
          tenantId: caller.tenantId,
          runAt: new Date(now.getTime() + this.config.VALIDATIONS_RESTORE_DAYS * 86_400_000),
        },
      );
    });
  }

  async restore(caller: Caller, id: string): Promise<ValidationEntity> {
    return this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id, caller.tenantId);
      if (!v) throw new ValidationException(ValidationErrorCode.ValidationNotFound, `validation ${id} not found`);
      if (!v.deletedAt)
        throw new ValidationException(ValidationErrorCode.ValidationNotDeleted, `validation ${id} is not deleted`);
      const now = this.clock.now();
      await m.getRepository(ValidationEntity).update({ id }, { deletedAt: null, updatedAt: now });
      return Object.assign(v, { deletedAt: null, updatedAt: now });
    });
  }

  /** Purge job: the validation's data and media go for good (unless it was restored). */
  private async purge(m: EntityManager, id: string): Promise<void> {
    const v = await this.state.lock(m, id);
    if (!v?.deletedAt) return;
    // The job of an earlier delete (restored since, then deleted again) leaves it to the later one.
    const window = this.config.VALIDATIONS_RESTORE_DAYS * 86_400_000;
    if (v.deletedAt.getTime() + window > this.clock.now().getTime()) return;
    await this.media.deleteOf(m, 'validation', [id]);
    await m.getRepository(ValidationEntity).delete({ id });
  }
}
