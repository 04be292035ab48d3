import { CursorPageQuery, Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

import { EmailField, PhoneField } from './contact-fields';

/** A page of contacts, optionally only those with this phone number, e-mail or external id (exact; all given must match). */
export class ListContactsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: 'E.164, exact', example: '+573001234567' })
  @IsOptional()
  @PhoneField()
  phone_number?: string;

  @EmailField()
  email?: string;

  @ApiPropertyOptional({ description: 'Exact', maxLength: 128 })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 128, { message: 'external_id must be 1 to 128 characters' })
  external_id?: string;
}
