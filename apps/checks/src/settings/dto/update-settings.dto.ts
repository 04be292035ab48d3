import { NAMES_MATCHING_TYPES, NamesMatchingType } from '@kyc/contracts';
import { ToBoolean } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, registerDecorator } from 'class-validator';

export const MIN_MAX_DURATION_MINUTES = 15;
export const MAX_MAX_DURATION_MINUTES = 168 * 60;

/**
 * What parseMaxDuration accepts (up to six digits, leading zeros allowed, 15m to 10080m or 1h to
 * 168h, the unit in either case) as an OpenAPI `pattern`, so the document declares the range the
 * custom rule checks. The server also trims the value first; the pattern leaves that out.
 */
export const MAX_DURATION_PATTERN =
  '^(?:(?:0{0,4}(?:1[5-9]|[2-9][0-9])|0{0,3}[1-9][0-9]{2}|0{0,2}[1-9][0-9]{3}|0?(?:100[0-7][0-9]|10080))[mM]' +
  '|(?:0{0,5}[1-9]|0{0,4}[1-9][0-9]|0{0,3}(?:1[0-5][0-9]|16[0-8]))[hH])$';

/** `<n>m` or `<n>h` in minutes; undefined when malformed or outside 15 minutes .. 168 hours. */
export function parseMaxDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{1,6})(m|h)$/.exec(value);
  if (!m) return undefined;
  const minutes = Number(m[1]) * (m[2] === 'h' ? 60 : 1);
  return minutes >= MIN_MAX_DURATION_MINUTES && minutes <= MAX_MAX_DURATION_MINUTES ? minutes : undefined;
}

function IsMaxDuration(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isMaxDuration',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: 'max_duration must be <n>m or <n>h, from 15m to 168h (7 days)' },
      validator: { validate: (v: unknown) => parseMaxDuration(v) !== undefined },
    });
}

/** POST /v1/settings: fields not sent keep their current value. */
export class UpdateSettingsDto {
  @ApiPropertyOptional({
    example: '6h',
    pattern: MAX_DURATION_PATTERN,
    description: '<n>m or <n>h, 15m to 168h. Default: 48h with retries; else 3h CO, MX, PE, BR; 48h CL and ALL; 72h CR',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsMaxDuration()
  max_duration?: string;

  @ApiPropertyOptional({
    enum: NAMES_MATCHING_TYPES,
    description:
      'soft (default): similar names; exact: identical names. Applies to criminal, legal and international records found by name',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsIn(NAMES_MATCHING_TYPES, { message: 'names_matching_type must be soft or exact' })
  names_matching_type?: NamesMatchingType;

  @ApiPropertyOptional({ description: 'Retry database queries until they answer or max_duration is reached' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'retries must be true or false' })
  retries?: boolean;
}
