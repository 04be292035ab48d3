import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const ATTACHMENT_TYPES: Record<string, string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt', 'text', 'log'],
  'text/markdown': ['md', 'markdown'],
  'text/csv': ['csv'],
  'application/json': ['json'],
};

/** POST /v1/oauth2/approval-attachments (form). */
export class StageAttachmentDto {
  @ApiProperty()
  @IsString()
  @MaxLength(100)
  client_id!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(200)
  client_secret!: string;

  @ApiProperty({ description: 'E-mail of the future approver' })
  @IsEmail()
  @MaxLength(254)
  login_hint!: string;

  @ApiProperty({
    description: 'At most 200 characters; letters, digits, spaces, . _ - ( ); the extension must match content_type',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Matches(/^(?!\.)[\p{L}\p{N} ._()-]+$/u, {
    message: 'file_name may contain only letters, digits, spaces and . _ - ( )',
  })
  file_name!: string;

  @ApiProperty({ enum: Object.keys(ATTACHMENT_TYPES) })
  @IsIn(Object.keys(ATTACHMENT_TYPES), {
    message: `content_type must be one of: ${Object.keys(ATTACHMENT_TYPES).join(', ')}`,
  })
  content_type!: string;
}
