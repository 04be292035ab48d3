import { domainException } from '@kyc/platform';

export enum FlowErrorCode {
  FlowNotFound = 'flow_not_found',
  FlowInvalid = 'flow_invalid',
}

const STATUS: Record<FlowErrorCode, number> = {
  [FlowErrorCode.FlowNotFound]: 404,
  [FlowErrorCode.FlowInvalid]: 400,
};

export class FlowException extends domainException<FlowErrorCode>(STATUS) {}
