import { domainException } from '@kyc/platform';

export enum ProcessErrorCode {
  ProcessNotFound = 'process_not_found',
  WebKeyRequired = 'web_key_required',
  KeyAlreadyUsed = 'key_already_used',
  NotProcessKey = 'not_process_key',
  ProcessFinished = 'process_finished',
  ProcessNotFinished = 'process_not_finished',
  WrongStep = 'wrong_step',
  NoStepBack = 'no_step_back',
  FileNotFound = 'file_not_found',
  WalletRefused = 'wallet_refused',
  /** The person made too many wrong guesses of their codes (validations locked them out for a while). */
  TooManyAttempts = 'too_many_attempts',
}

const STATUS: Record<ProcessErrorCode, number> = {
  [ProcessErrorCode.ProcessNotFound]: 404,
  [ProcessErrorCode.WebKeyRequired]: 403,
  [ProcessErrorCode.KeyAlreadyUsed]: 409,
  [ProcessErrorCode.NotProcessKey]: 403,
  [ProcessErrorCode.ProcessFinished]: 409,
  [ProcessErrorCode.ProcessNotFinished]: 409,
  [ProcessErrorCode.WrongStep]: 400,
  [ProcessErrorCode.NoStepBack]: 409,
  [ProcessErrorCode.FileNotFound]: 404,
  [ProcessErrorCode.WalletRefused]: 422,
  [ProcessErrorCode.TooManyAttempts]: 429,
};

export class ProcessException extends domainException<ProcessErrorCode>(STATUS) {}
