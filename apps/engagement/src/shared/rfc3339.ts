import { applyDecorators } from '@nestjs/common';
import { IsISO8601, Matches } from 'class-validator';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date-time (full date, time and offset) that is also a real instant. */
export const IsRfc3339 = (field: string) =>
  applyDecorators(
    Matches(RFC3339, { message: `${field} must be an RFC 3339 date-time (2026-11-25T10:00:00Z)` }),
    IsISO8601({ strict: true }, { message: `${field} must be an RFC 3339 date-time (2026-11-25T10:00:00Z)` }),
  );
