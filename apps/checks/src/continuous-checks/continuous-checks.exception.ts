import { AppException, FieldError } from '@kyc/platform';

export enum ContinuousCheckErrorCode {
  ContinuousCheckNotFound = 'continuous_check_not_found',
  CheckNotFound = 'check_not_found',
}

const STATUS: Record<ContinuousCheckErrorCode, number> = {
  [ContinuousCheckErrorCode.ContinuousCheckNotFound]: 404,
  [ContinuousCheckErrorCode.CheckNotFound]: 404,
};

export class ContinuousCheckException extends AppException {
  constructor(code: ContinuousCheckErrorCode, message: string, fields: FieldError[] = []) {
    super(STATUS[code], code, message, fields);
  }
}
