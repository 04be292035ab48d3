import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

import { PDF_LANGUAGES, PdfLanguage } from '../pdf-labels';

export class PdfQuery {
  @ApiPropertyOptional({
    enum: PDF_LANGUAGES,
    description: 'Language of the PDF (lowercase ISO 639-1); default es (Spanish)',
  })
  @IsOptional()
  @IsIn(PDF_LANGUAGES, { message: `lang must be one of ${PDF_LANGUAGES.join(', ')}` })
  lang?: PdfLanguage;
}
