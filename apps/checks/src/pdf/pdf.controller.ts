import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, ErrorEnvelopeDto } from '@kyc/platform';
import { Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';

import { PdfQuery } from './dto/pdf.query';
import { PdfRequestedResponse } from './dto/pdf.response';
import { PdfService } from './pdf.service';
import { DEFAULT_PDF_LANGUAGE } from './pdf-labels';

@ApiTags('pdf')
@BackendKeys()
@Controller('v1/checks/:check_id/pdf')
export class PdfController {
  constructor(private readonly pdfs: PdfService) {}

  /** Requests the PDF: 202 while it is generated; download it from pdf_path. */
  @Post()
  @ApiSuccess({
    status: 202,
    type: PdfRequestedResponse,
    example: {
      check_id: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c',
      status: 'generating',
      pdf_path: '/v1/checks/CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c/pdf',
      requested_at: '2026-11-25T06:00:00.000Z',
    },
  })
  @ApiEnvelopeErrors(404)
  @HttpCode(202)
  async request(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string) {
    const row = await this.pdfs.request(caller, checkId);
    return {
      check_id: row.checkId,
      status: row.status,
      pdf_path: `/v1/checks/${row.checkId}/pdf`,
      requested_at: row.requestedAt.toISOString(),
    };
  }

  @Get()
  @ApiSuccess({ contentType: 'application/pdf', description: 'The PDF in the language asked (lang: es, en, pt)' })
  @ApiEnvelopeErrors(400, { 404: ['No PDF was requested for this check', 'pdf_not_requested'] })
  @ApiResponse({
    status: 202,
    description: 'Still generating (error envelope, `pdf_generating`)',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
        example: { code: 202, status: 'Accepted', message: 'The PDF is being generated', error_code: 'pdf_generating' },
      },
    },
  })
  @ApiProduces('application/pdf')
  async download(@CurrentCaller() caller: Caller, @Param('check_id') checkId: string, @Query() query: PdfQuery) {
    const lang = query.lang ?? DEFAULT_PDF_LANGUAGE;
    const pdf = await this.pdfs.download(caller, checkId, lang);
    return new StreamableFile(pdf, {
      type: 'application/pdf',
      disposition: `inline; filename="${checkId}-${lang}.pdf"`,
      length: pdf.length,
    });
  }
}
