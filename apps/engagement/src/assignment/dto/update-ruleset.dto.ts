import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';

import { RULESET_STRATEGIES, RulesetStrategy } from '../../agents/agent.entity';

/** PUT /v1/engagement/agent/assignment-rulesets/{ruleset_id} (not in the spec: how a tenant picks its strategy). */
export class UpdateRulesetDto {
  @ApiProperty({ enum: RULESET_STRATEGIES })
  @IsIn(RULESET_STRATEGIES)
  strategy!: RulesetStrategy;
}
