import { IsOptional, IsString } from 'class-validator';

export class ListInboundsQuery {
  @IsOptional()
  @IsString()
  start_key?: string;
}
