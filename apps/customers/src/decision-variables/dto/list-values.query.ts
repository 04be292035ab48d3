import { CursorPageQuery, ToArray } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

import { DV_CATEGORIES } from '../decision-variable.catalog';

// Years 1900 to 9999: the default start (30 days before end_date) stays a date PostgreSQL reads.
const DAY = /^(19|[2-9]\d)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const isDay = (s: unknown) =>
  typeof s === 'string' && DAY.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

@ValidatorConstraint({ name: 'calendarDay' })
class CalendarDay implements ValidatorConstraintInterface {
  validate = (value: unknown) => isDay(value);
  defaultMessage = (args: ValidationArguments) => `${args.property} is not a calendar date`;
}

@ValidatorConstraint({ name: 'dateRange' })
class DateRange implements ValidatorConstraintInterface {
  validate(end: unknown, args: ValidationArguments): boolean {
    const start = (args.object as ListDecisionValuesQuery).start_date;
    return !isDay(start) || !isDay(end) || (start as string) <= (end as string);
  }

  defaultMessage(): string {
    return 'end_date must not be before start_date';
  }
}

export class ListDecisionValuesQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: DV_CATEGORIES, isArray: true })
  @IsOptional()
  @ToArray()
  @IsIn(DV_CATEGORIES, { each: true, message: `categories must be among ${DV_CATEGORIES.join(', ')}` })
  categories?: string[];

  @ApiPropertyOptional({ isArray: true, description: 'Variable names' })
  @IsOptional()
  @ToArray()
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  names?: string[];

  @ApiPropertyOptional({ description: 'Text in the variable name or description' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ example: '2026-01-01', description: 'YYYY-MM-DD (default: 30 days before end_date)' })
  @IsOptional()
  @Matches(DAY, { message: 'start_date must be a date (YYYY-MM-DD, from 1900)' })
  @Validate(CalendarDay)
  start_date?: string;

  @ApiPropertyOptional({ example: '2026-01-31', description: 'YYYY-MM-DD, inclusive (default: today)' })
  @IsOptional()
  @Matches(DAY, { message: 'end_date must be a date (YYYY-MM-DD, from 1900)' })
  @Validate(CalendarDay)
  @Validate(DateRange)
  end_date?: string;

  @ApiPropertyOptional({ description: 'Only this customer' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customer_id?: string;
}
