import { domainException } from '@kyc/platform';

export enum OutboundErrorCode {
  OutboundNotFound = 'outbound_not_found',
  OutboundNotEditable = 'outbound_not_editable',
  OutboundNotSendable = 'outbound_not_sendable',
  NoOutbounds = 'no_outbounds',
  TooManyUploads = 'too_many_uploads',
}

const STATUS: Record<OutboundErrorCode, number> = {
  [OutboundErrorCode.OutboundNotFound]: 404,
  [OutboundErrorCode.OutboundNotEditable]: 409,
  [OutboundErrorCode.OutboundNotSendable]: 409,
  [OutboundErrorCode.NoOutbounds]: 404,
  [OutboundErrorCode.TooManyUploads]: 429,
};

export class OutboundException extends domainException<OutboundErrorCode>(STATUS) {}
