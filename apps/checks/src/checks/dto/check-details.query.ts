import { DETAIL_LANGUAGES, DetailLanguage } from '@kyc/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';

export class CheckDetailsQuery {
  @ApiPropertyOptional({
    enum: DETAIL_LANGUAGES,
    description: 'Language of the labels (lowercase ISO 639-1); default: the language of each database',
  })
  @IsOptional()
  @IsIn(DETAIL_LANGUAGES, { message: `lang must be one of ${DETAIL_LANGUAGES.join(', ')}` })
  lang?: DetailLanguage;

  @ApiPropertyOptional({ description: 'Page start key from the `next` link' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
