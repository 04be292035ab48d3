import type { UserStatus } from '@kyc/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';

import { USER_STATUSES } from './user-fields';

/** PATCH /v1/account/users/{username}/status: the reason is required and goes to the audit log. */
export class ChangeUserStatusDto {
  @ApiProperty({ enum: USER_STATUSES })
  @IsIn(USER_STATUSES, { message: `status must be one of ${USER_STATUSES.join(', ')}` })
  status!: UserStatus;

  @ApiProperty({ description: 'Why (stored in the audit log)' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'reason is required' })
  @MinLength(1, { message: 'reason is required' })
  @MaxLength(1000, { message: 'reason must be at most 1000 characters' })
  reason!: string;
}
