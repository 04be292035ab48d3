import { domainException } from '@kyc/platform';

export enum SegmentErrorCode {
  SegmentNotFound = 'segment_not_found',
  InvalidRule = 'invalid_rule',
  ComputeInProgress = 'compute_in_progress',
}

const STATUS: Record<SegmentErrorCode, number> = {
  [SegmentErrorCode.SegmentNotFound]: 404,
  [SegmentErrorCode.InvalidRule]: 400,
  [SegmentErrorCode.ComputeInProgress]: 409,
};

export class SegmentException extends domainException<SegmentErrorCode>(STATUS) {}
