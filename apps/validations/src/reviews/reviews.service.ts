import { Clock, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { MediaService } from '../media/media.service';
import { ValidationEntity } from '../validations/validation.entity';
import { presentValidation } from '../validations/validation.presenter';
import { ValidationStateService } from '../validations/validation-state.service';
import { ValidationErrorCode, ValidationException } from '../validations/validations.exception';
import { ReviewErrorCode, ReviewException } from './reviews.exception';

/**
 * The manual review queue: validations whose engines ran and whose validator uses manual review
 * wait here (manual_review_status pending) until an operator approves or declines them.
 */
@Injectable()
export class ReviewsService {
  constructor(
    @InjectRepository(ValidationEntity) private readonly validations: Repository<ValidationEntity>,
    private readonly state: ValidationStateService,
    private readonly media: MediaService,
    private readonly clock: Clock,
  ) {}

  list(tenantId: string, startKey?: string): Promise<Page<ValidationEntity>> {
    const qb = this.validations
      .createQueryBuilder('v')
      .where(
        "v.tenantId = :tenantId AND v.manualReviewStatus = 'pending' AND v.status = 'pending' AND v.deletedAt IS NULL",
        {
          tenantId,
        },
      );
    return paginate(qb, { startKey, limit: 20 });
  }

  async get(id: string, baseUrl: string) {
    const v = await this.validations.findOneBy({ id });
    if (!v || v.deletedAt)
      throw new ValidationException(ValidationErrorCode.ValidationNotFound, `validation ${id} not found`);
    const media = (await this.media.slotsOf('validation', [id])).filter((s) => s.uploadedAt);
    return presentValidation(v, {
      showDetails: true,
      media: media.map((s) => ({
        slot: s.slot,
        content_type: s.contentType,
        size: s.size,
        ...this.media.viewLink(baseUrl, s),
      })),
    });
  }

  decide(id: string, approve: boolean, comment?: string) {
    return this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id);
      if (!v || v.deletedAt)
        throw new ValidationException(ValidationErrorCode.ValidationNotFound, `validation ${id} not found`);
      if (v.status !== 'pending' || v.manualReviewStatus !== 'pending')
        throw new ReviewException(ReviewErrorCode.ReviewNotPending, `validation ${id} is not waiting for review`);
      const outcome = v.outcome
        ? {
            ...v.outcome,
            details: { ...v.outcome.details, manual_review: { comment, decided_at: this.clock.now().toISOString() } },
          }
        : undefined;
      await (approve
        ? this.state.finish(m, v, { status: 'success', outcome, manualReviewStatus: 'approved' })
        : this.state.finish(m, v, {
            status: 'declined',
            reason: 'declined_by_manual_review',
            outcome,
            manualReviewStatus: 'declined',
          }));
      return presentValidation(v);
    });
  }
}
