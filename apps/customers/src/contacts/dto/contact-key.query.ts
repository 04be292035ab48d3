import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export const CONTACT_KEY_TYPES = ['contact_id', 'phone_number', 'external_id'] as const;
export type ContactKeyType = (typeof CONTACT_KEY_TYPES)[number];

export class ContactKeyQuery {
  @ApiPropertyOptional({ enum: CONTACT_KEY_TYPES, default: 'contact_id', description: 'What the path value is' })
  @IsOptional()
  @IsIn(CONTACT_KEY_TYPES, { message: `key_type must be one of ${CONTACT_KEY_TYPES.join(', ')}` })
  key_type?: ContactKeyType;
}
