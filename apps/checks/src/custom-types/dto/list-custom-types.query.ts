import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

export class ListCustomTypesQuery {
  @ApiPropertyOptional({ description: 'Page start key from the `next` link' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
