import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export const PERMISSION_LISTS = ['account', 'user'] as const;

export class ListPermissionsQuery {
  @ApiPropertyOptional({
    enum: PERMISSION_LISTS,
    description: "user: the calling user's role permissions; default: the account's master set",
  })
  @IsOptional()
  @IsIn(PERMISSION_LISTS, { message: `list must be one of ${PERMISSION_LISTS.join(', ')}` })
  list?: (typeof PERMISSION_LISTS)[number];
}
