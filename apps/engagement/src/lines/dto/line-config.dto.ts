import { IsString, Matches, MaxLength } from 'class-validator';

import { ID_PATTERN } from '../../shared/phones';

/** PUT /v1/msg/lines/{waba_line}/config: the flow a user writing to the line starts by default. */
export class LineConfigDto {
  @IsString()
  @MaxLength(128)
  @Matches(ID_PATTERN, { message: 'default_flow_id must be a flow id ([a-zA-Z0-9_.-]+)' })
  default_flow_id!: string;
}
