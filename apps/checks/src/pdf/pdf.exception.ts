import { domainException } from '@kyc/platform';

export enum PdfErrorCode {
  /** The PDF is still being generated: 202 in the error envelope; ask again shortly. */
  PdfGenerating = 'pdf_generating',
  PdfNotRequested = 'pdf_not_requested',
  PdfFailed = 'pdf_generation_failed',
}

const STATUS: Record<PdfErrorCode, number> = {
  [PdfErrorCode.PdfGenerating]: 202,
  [PdfErrorCode.PdfNotRequested]: 404,
  [PdfErrorCode.PdfFailed]: 500,
};

export class PdfException extends domainException<PdfErrorCode>(STATUS) {}
