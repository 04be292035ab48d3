import { ApiProperty } from '@nestjs/swagger';

import { RULESET_STRATEGIES } from '../../agents/agent.entity';

export class RulesetResponse {
  @ApiProperty({ example: 'default' })
  ruleset_id!: string;

  @ApiProperty({ enum: RULESET_STRATEGIES })
  strategy!: string;

  @ApiProperty({
    description: 'Chats queue per line; agents serve the queues of their groups (none: all)',
    example: 'line',
  })
  queue_by!: string;

  @ApiProperty({ description: 'Only online agents with free capacity receive chats' })
  online_only!: boolean;

  @ApiProperty({ description: 'false: capacities are not enforced (toggle_capacity)' })
  capacity_enabled!: boolean;

  @ApiProperty({ example: 5 })
  default_capacity!: number;
}

export const RULESET_EXAMPLE = {
  ruleset_id: 'default',
  strategy: 'round_robin',
  queue_by: 'line',
  online_only: true,
  capacity_enabled: true,
  default_capacity: 5,
};
