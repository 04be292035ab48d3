import { BodyOptional } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

/** The body may be left out. */
@BodyOptional()
export class ComputeSegmentDto {
  @ApiPropertyOptional({
    enum: ['auto', 'node'],
    default: 'auto',
    description:
      'auto: SQL push-down, Node when the rule cannot be translated; node: always evaluate in Node (to compare)',
  })
  @IsOptional()
  @IsIn(['auto', 'node'], { message: 'evaluation must be one of auto, node' })
  evaluation?: 'auto' | 'node';
}
