import { domainException } from '@kyc/platform';

/** Error codes of the tenant's validator settings. */
export enum ValidatorConfigErrorCode {
  FaceManualReviewNotActivated = 'face_manual_review_not_activated',
}

const STATUS: Record<ValidatorConfigErrorCode, number> = {
  [ValidatorConfigErrorCode.FaceManualReviewNotActivated]: 403,
};

export class ValidatorConfigException extends domainException<ValidatorConfigErrorCode>(STATUS) {}
