import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { PAGE_LANGUAGES } from '../i18n/messages';
import { UPLOAD_SLOTS, UploadSlot } from '../page-state';

/** Base64 of 10 MiB (the validations service's default media limit) plus a data: prefix. */
export const UPLOAD_MAX_CHARS = 14_000_000;
export const UPLOAD_BODY_LIMIT_BYTES = UPLOAD_MAX_CHARS + 4_096;

export class PageQuery {
  @ApiProperty({ description: 'the temporary web key of the process (the link carries it)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  token!: string;

  @ApiProperty({ required: false, enum: PAGE_LANGUAGES })
  @IsOptional()
  @IsIn(PAGE_LANGUAGES)
  lang?: string;
}

export class UploadParams {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  process_id!: string;

  @IsIn(Object.keys(UPLOAD_SLOTS))
  slot!: UploadSlot;
}

export class UploadDto {
  @ApiProperty({ description: 'the image (JPEG or PNG) in Base64, optionally as a data: URL' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(UPLOAD_MAX_CHARS)
  @Matches(/^(data:image\/(jpeg|png);base64,)?[A-Za-z0-9+/]+={0,2}$/, {
    message: 'file must be Base64 (or a data: URL of a JPEG or PNG image)',
  })
  file!: string;
}
