import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';

export const UPDATE_TYPES = ['user', 'default', 'toggle_capacity'] as const;

/**
 * POST /v1/engagement/agent/capacities (JSON). `user`: capacity of the `targets`; `default`: the
 * capacity of agents without their own; `toggle_capacity`: turns capacity limits off or back on
 * (no capacity or targets needed).
 */
export class UpdateCapacitiesDto {
  @ApiProperty({ enum: UPDATE_TYPES })
  @IsIn(UPDATE_TYPES)
  update_type!: (typeof UPDATE_TYPES)[number];

  @ApiPropertyOptional({ minimum: 0, maximum: 1000, description: 'Required for user and default' })
  @ValidateIf((o: UpdateCapacitiesDto) => o.update_type !== 'toggle_capacity')
  @IsDefined({ message: 'capacity is required for update_type user and default' })
  @IsInt({ message: 'capacity must be an integer from 0 to 1000' })
  @Min(0, { message: 'capacity must be an integer from 0 to 1000' })
  @Max(1000, { message: 'capacity must be an integer from 0 to 1000' })
  capacity?: number;

  @ApiPropertyOptional({ type: [String], description: "Agents' e-mails; required only for user" })
  @ValidateIf((o: UpdateCapacitiesDto) => o.update_type === 'user' || o.targets !== undefined)
  @IsDefined({ message: 'targets (agent e-mails) are required for update_type user' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsEmail({}, { each: true, message: "each target must be an agent's e-mail" })
  targets?: string[];
}
