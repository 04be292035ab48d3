import { domainException } from '@kyc/platform';

export enum InboundErrorCode {
  InboundNotFound = 'inbound_not_found',
  ActivationMessageTaken = 'activation_message_taken',
  SessionNotFound = 'session_not_found',
}

const STATUS: Record<InboundErrorCode, number> = {
  [InboundErrorCode.InboundNotFound]: 404,
  [InboundErrorCode.ActivationMessageTaken]: 409,
  [InboundErrorCode.SessionNotFound]: 404,
};

export class InboundException extends domainException<InboundErrorCode>(STATUS) {}
