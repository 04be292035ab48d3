import { describeIssues, validate as validateJsonLogic, validateJson } from '@kyc/json-logic';
import { registerDecorator, ValidationOptions } from 'class-validator';

export const MAX_CONDITION_CHARS = 65_536;

/**
 * The problem with a rule condition, or undefined when it is valid JSON-Logic. A string is JSON
 * text (a form field, or a JSON body that sends the condition as text); anything else is the
 * condition itself (a JSON body).
 */
export function conditionProblem(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return 'is required';
  if (typeof value === 'string' && value.length > MAX_CONDITION_CHARS)
    return `must be at most ${MAX_CONDITION_CHARS} characters of JSON`;
  if (typeof value !== 'string' && JSON.stringify(value).length > MAX_CONDITION_CHARS)
    return `must be at most ${MAX_CONDITION_CHARS} characters of JSON`;
  const result = typeof value === 'string' ? validateJson(value) : validateJsonLogic(value);
  if (result.valid) return Array.isArray(result.rule) ? 'must be a JSON-Logic expression, not a list' : undefined;
  const notJson = result.errors.some((e) => e.path === '' && e.message.startsWith('is not valid JSON'));
  return notJson ? describeIssues(result.errors) : `is not valid JSON-Logic: ${describeIssues(result.errors)}`;
}

/** The condition as stored (parsed from text when it came as text); call after validation. */
export const parseCondition = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** class-validator decorator: the property is a valid JSON-Logic condition (object or JSON text). */
export function IsJsonLogicCondition(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isJsonLogicCondition',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => conditionProblem(value) === undefined,
        defaultMessage: (args) => `${args?.property} ${conditionProblem(args?.value)}`,
      },
    });
}
