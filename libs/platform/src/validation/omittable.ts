import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * The field may be left out, but when present it must pass its rules: unlike `@IsOptional()`,
 * `null` is not skipped (it fails the field's type rule, a 400 naming the field). The OpenAPI
 * document then shows the field as optional and not nullable.
 */
export const IsOmittable = (options?: ValidationOptions): PropertyDecorator =>
  ValidateIf((_: object, value: unknown) => value !== undefined, options);
