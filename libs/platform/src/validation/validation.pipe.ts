import { ValidationError, ValidationPipe } from '@nestjs/common';

import { FieldError, ValidationFailedException } from '../errors/app.exception';
import { cacheValidationMetadata } from './metadata-cache';

/** Flattens class-validator errors into `fields`, one entry per offending field (nested as a.b). */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) out.push({ field, message: Object.values(error.constraints).join('; ') });
    if (error.children?.length) out.push(...toFieldErrors(error.children, field));
  }
  return out;
}

/**
 * The one validation pipe. Unknown fields are ignored (stripped), not refused: the public API
 * accepts many optional inputs and clients send more than a given check type uses.
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedException(toFieldErrors(errors)),
  });
}
