import { domainException } from '@kyc/platform';

export enum LineErrorCode {
  LineNotFound = 'line_not_found',
}

const STATUS: Record<LineErrorCode, number> = {
  [LineErrorCode.LineNotFound]: 404,
};

export class LineException extends domainException<LineErrorCode>(STATUS) {}
