import { Caller, CurrentCaller } from '@kyc/platform';
import { Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';

import { PdfQuery } from './dto/pdf.query';
import { PdfService } from './pdf.service';
import { DEFAULT_PDF_LANGUAGE } from './pdf-labels';

@ApiTags('pdf')
@Controller('v1/checks/:check_id/pdf')
export class PdfController {
  constructor(private readonly pdfs: PdfService) {}

  /** Requests the PDF: 202 while it is generated; download it from pdf_path. */
  @Post()
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
