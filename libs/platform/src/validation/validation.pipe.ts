import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

import { FieldError, ValidationFailedException } from '../errors/app.exception';
import { isBodyOptional } from './body-optional';
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

type DtoClass = Parameters<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[0];
const knownProperties = new WeakMap<DtoClass, Set<string>>();

/** The properties of a DTO class that carry validation metadata (what `whitelist` keeps). */
function propertiesOf(metatype: DtoClass): Set<string> {
  let known = knownProperties.get(metatype);
  if (!known) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    known = new Set(metadata.map((m) => m.propertyName));
    knownProperties.set(metatype, known);
  }
  return known;
}

/**
 * The platform's ValidationPipe: before class-transformer sees a body or query, the keys the DTO
 * does not declare are dropped (what `whitelist` would strip afterwards anyway), in one pass with
 * a set lookup. class-transformer's cost grows with the square of the number of keys it is given;
 * this keeps it linear in the input.
 */
class PlatformValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    // A request without a body, on a route that takes a body DTO: the empty body `{}` when the DTO is
    // @BodyOptional(), else refused naming the body (an empty object `{}` is a body). A JSON `null` is a
    // body that is not an object: refused naming the body on either.
    if (metadata.type === 'body' && (value === undefined || value === null) && typeof metatype === 'function') {
      if (value === undefined && isBodyOptional(metatype)) value = {};
      else if (value === null && isBodyOptional(metatype))
        return Promise.reject(
          new ValidationFailedException([
            { field: 'body', message: 'the request body must be an object (JSON or form fields), or left out' },
          ]),
        );
      else if (propertiesOf(metatype).size)
        return Promise.reject(
          new ValidationFailedException(
            [{ field: 'body', message: 'a request body is required (JSON or form fields)' }],
            'The request body is required',
          ),
        );
    }
    if (
      (metadata.type === 'body' || metadata.type === 'query') &&
      typeof metatype === 'function' &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value)
    ) {
      const known = propertiesOf(metatype);
      if (known.size) {
        // The copy keeps the prototype: a form body (parsed without one) stays recognizable (isFormBody).
        const kept = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
        for (const key of Object.keys(value)) if (known.has(key)) kept[key] = (value as Record<string, unknown>)[key];
        value = kept;
      }
    }
    return (super.transform(value, metadata) as Promise<unknown>).catch((err: unknown) => {
      // A validator that runs out of stack on a value (a backtracking pattern over megabytes of
      // text) is answered as the client's input, never as a 500. Such validators are bugs to fix;
      // this keeps the answer right meanwhile.
      if (err instanceof RangeError)
        throw new ValidationFailedException([], 'A value of the request is too large to check');
      throw err;
    });
  }
}

/**
 * The one validation pipe. Unknown fields are ignored (stripped), not refused: the public API
 * accepts many optional inputs and clients send more than a given check type uses.
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new PlatformValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedException(toFieldErrors(errors)),
  });
}

/**
 * Whether a body (or the plain object a class-transformer `@Transform` sees as `obj`) came as form
 * fields: the form parser builds objects outside Object's prototype chain, JSON.parse inside it. Lets a field
 * accept a single form value where JSON must send a list.
 */
export const isFormBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !(body instanceof Object);
