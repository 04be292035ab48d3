import { CursorPageQuery, IsOmittable } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';

import { AGENT_TEMPLATE_TYPES } from '../agent-template.entity';

export const TEMPLATE_NAME = /^[\p{L}\p{N} _.-]{1,128}$/u;
const NAME_MESSAGE = 'template_name is 1 to 128 letters, digits, spaces, _ . -';

/** PUT /v1/engagement/agent/templates/{template_name} (JSON). */
export class UpdateAgentTemplateDto {
  @ApiProperty({ enum: AGENT_TEMPLATE_TYPES })
  @IsIn(AGENT_TEMPLATE_TYPES)
  template_type!: 'text';

  @ApiPropertyOptional({
    description: 'The text agents send (≤ 4096)',
    example: 'Hola {{name}}, gracias por escribirnos.',
  })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  content?: string;
}

/** POST /v1/engagement/agent/templates (JSON). */
export class CreateAgentTemplateDto extends UpdateAgentTemplateDto {
  @ApiProperty({ example: 'saludo' })
  @IsString()
  @Matches(TEMPLATE_NAME, { message: NAME_MESSAGE })
  template_name!: string;
}

/** GET /v1/engagement/agent/templates: `prefix` of the name, `limit` (1..100, default 20), `start_key`. */
export class ListAgentTemplatesQuery extends CursorPageQuery {
  @ApiPropertyOptional({ description: 'Names starting with it (case-sensitive)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  prefix?: string;
}

/** POST /v1/engagement/agent/templates/delete (JSON). */
export class DeleteAgentTemplatesDto {
  @ApiProperty({ type: [String], example: ['saludo', 'despedida'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(TEMPLATE_NAME, { each: true, message: 'each template name is 1 to 128 letters, digits, spaces, _ . -' })
  template_names!: string[];
}

export class AgentTemplateResponse {
  @ApiProperty({ example: 'saludo' })
  template_name!: string;

  @ApiProperty({ enum: AGENT_TEMPLATE_TYPES })
  template_type!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  content!: string | null;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

export const AGENT_TEMPLATE_EXAMPLE = {
  template_name: 'saludo',
  template_type: 'text',
  content: 'Hola, gracias por escribirnos. ¿En qué te ayudo?',
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
};
