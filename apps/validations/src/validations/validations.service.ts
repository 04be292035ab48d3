import { Caller, Clock, JobQueueService, Page, paginate } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { AccountsService } from '../accounts/accounts.service';
import { MediaService } from '../media/media.service';
import { ValidationEntity } from './validation.entity';
import { presentValidation } from './validation.presenter';
import { ValidationInstructions } from './validation-instructions';
import { PROCESS_QUEUE } from './validation-queues';
import { ValidationReadStore } from './validation-read.store';
import { ValidationErrorCode, ValidationException } from './validations.exception';

const PAGE_SIZE = 20;

/**
 * Validations: reads (account-scoped too) with show_details, and the media owner hooks (a
 * validation accepts uploads while pending; the engines' job starts when its media are in).
 * Creation, perform-validation and delete/restore are use cases of their own.
 */
@Injectable()
export class ValidationsService implements OnModuleInit {
  constructor(
    @InjectRepository(ValidationEntity) private readonly validations: Repository<ValidationEntity>,
    private readonly accounts: AccountsService,
    private readonly media: MediaService,
    private readonly reads: ValidationReadStore,
    private readonly instructions: ValidationInstructions,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.media.registerOwner('validation', {
      acceptsUntil: async (m, id) => {
        const v = await m.getRepository(ValidationEntity).findOneBy({ id });
        return v && v.status === 'pending' && !v.deletedAt ? v.expiresAt : undefined;
      },
      complete: async (m, tenantId, id) => {
        await m.getRepository(ValidationEntity).update({ id }, { mediaCompleteAt: this.clock.now() });
        await this.jobs.enqueue(
          m,
          PROCESS_QUEUE,
          { validation_id: id },
          { tenantId, maxAttempts: 3, dedupeKey: `process:${id}` },
        );
      },
      visible: async (m, id) => {
        const v = await m.getRepository(ValidationEntity).findOneBy({ id });
        return !!v && !v.deletedAt;
      },
    });
  }

  async get(caller: Caller, id: string, accountId?: string): Promise<ValidationEntity> {
    return this.visible(await this.validations.findOneBy({ tenantId: caller.tenantId, id }), id, accountId);
  }

  /** The validation when the caller may see it (not deleted; the account's when an account is named). */
  private visible(v: ValidationEntity | null, id: string, accountId?: string): ValidationEntity {
    if (!v || v.deletedAt || (accountId !== undefined && v.accountId !== accountId))
      throw new ValidationException(ValidationErrorCode.ValidationNotFound, `validation ${id} not found`);
    return v;
  }

  async getPresented(caller: Caller, id: string, showDetails: boolean, baseUrl: string, accountId?: string) {
    // One statement for the validation and its slots: the path clients poll while the engines work.
    const found = await this.reads.findWithMedia(caller.tenantId, id);
    const v = this.visible(found?.validation ?? null, id, accountId);
    const media = found?.media ?? [];
    return presentValidation(v, {
      instructions: this.instructions.of(v, media, baseUrl),
      showDetails,
      media: showDetails
        ? media
            .filter((s) => s.uploadedAt)
            .map((s) => ({
              slot: s.slot,
              content_type: s.contentType,
              size: s.size,
              ...this.media.viewLink(baseUrl, s),
            }))
        : undefined,
    });
  }

  async list(
    caller: Caller,
    startKey: string | undefined,
    accountId?: string,
  ): Promise<Page<ReturnType<typeof presentValidation>>> {
    if (accountId !== undefined) await this.accounts.get(caller, accountId);
    const qb = this.validations
      .createQueryBuilder('v')
      .where('v.tenantId = :tenant AND v.deletedAt IS NULL', { tenant: caller.tenantId });
    if (accountId !== undefined) qb.andWhere('v.accountId = :accountId', { accountId });
    const page = await paginate(qb, { startKey, limit: PAGE_SIZE });
    return { items: page.items.map((v) => presentValidation(v)), nextKey: page.nextKey };
  }
}
