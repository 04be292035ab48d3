import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

import { PageQuery } from '../../dto/list-rules.query';
import { EXECUTION_OUTCOMES, ExecutionOutcome } from '../execution.entity';

export class ListExecutionsQuery extends PageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  rule_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  action_id?: string;

  @ApiPropertyOptional({ enum: EXECUTION_OUTCOMES })
  @IsOptional()
  @IsIn(EXECUTION_OUTCOMES, { message: `outcome must be one of ${EXECUTION_OUTCOMES.join(', ')}` })
  outcome?: ExecutionOutcome;

  @ApiPropertyOptional({ description: 'The check whose result fired the rules' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  check_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  event_id?: string;
}
