import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value)))
  @IsInt({ message: 'limit must be an integer from 1 to 200' })
  @Min(1, { message: 'limit must be an integer from 1 to 200' })
  @Max(200, { message: 'limit must be an integer from 1 to 200' })
  limit?: number;

  @ApiPropertyOptional({ description: 'From the `next` link of the previous page' })
  @IsOptional()
  @IsString()
  start_key?: string;
}
