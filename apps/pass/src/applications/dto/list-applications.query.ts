import { CursorPageQuery } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';

/** GET /v1/admin/applications. */
export class ListApplicationsQuery extends CursorPageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Matches(/^[a-zA-Z0-9_.-]{1,64}$/)
  tenant_id?: string;
}
