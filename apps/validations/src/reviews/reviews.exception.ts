import { domainException } from '@kyc/platform';

/** Error codes of manual reviews. */
export enum ReviewErrorCode {
  ReviewNotPending = 'review_not_pending',
}

const STATUS: Record<ReviewErrorCode, number> = {
  [ReviewErrorCode.ReviewNotPending]: 409,
};

export class ReviewException extends domainException<ReviewErrorCode>(STATUS) {}
