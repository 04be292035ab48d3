import { domainException } from '@kyc/platform';

export enum MessageErrorCode {
  MessageNotFound = 'message_not_found',
}

const STATUS: Record<MessageErrorCode, number> = {
  [MessageErrorCode.MessageNotFound]: 404,
};

export class MessageException extends domainException<MessageErrorCode>(STATUS) {}
