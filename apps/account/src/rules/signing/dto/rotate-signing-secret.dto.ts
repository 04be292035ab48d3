import { BodyOptional } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_GRACE_SECONDS = 86_400;

/** The body may be left out: rotation takes the default grace period. */
@BodyOptional()
export class RotateSigningSecretDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 604800,
    default: DEFAULT_GRACE_SECONDS,
    description: 'How long the previous secret keeps signing next to the new one',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === undefined || value === ''
      ? undefined
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : value,
  )
  @IsInt({ message: 'grace_period_seconds must be an integer from 0 to 604800 (7 days)' })
  @Min(0, { message: 'grace_period_seconds must be an integer from 0 to 604800 (7 days)' })
  @Max(604_800, { message: 'grace_period_seconds must be an integer from 0 to 604800 (7 days)' })
  grace_period_seconds?: number;
}
