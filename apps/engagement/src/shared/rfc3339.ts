import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsISO8601, Matches } from 'class-validator';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 date-time (full date, time and offset) that is also a real instant. RFC 3339 allows a
 * lower-case `t` and `z` (section 5.6), which ISO 8601's strict check does not: the text is
 * upper-cased first, and read as such from then on.
 */
export const IsRfc3339 = (field: string) =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value)),
    Matches(RFC3339, { message: `${field} must be an RFC 3339 date-time (2026-11-25T10:00:00Z)` }),
    IsISO8601({ strict: true }, { message: `${field} must be an RFC 3339 date-time (2026-11-25T10:00:00Z)` }),
  );
