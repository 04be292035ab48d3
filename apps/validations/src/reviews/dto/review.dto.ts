import { BodyOptional, CursorPageQuery, Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class ReviewQueueQuery extends CursorPageQuery {
  @ApiProperty({ description: 'the tenant whose queue is read' })
  @IsString({ message: 'tenant_id is required' })
  tenant_id!: string;
}

/** The body may be left out: a decision needs no comment. */
@BodyOptional()
export class ReviewDecisionDto {
  @ApiPropertyOptional({ maxLength: 500, description: "the reviewer's note" })
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(500)
  comment?: string;
}
