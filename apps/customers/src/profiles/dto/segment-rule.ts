import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

import { segmentRuleIssues } from '../segment-variables';

/** Form text that is not JSON (kept so the validator can say so). */
export class InvalidRuleText {
  constructor(
    readonly text: string,
    readonly error: string,
  ) {}
}

/** A rule is a JSON-Logic operation (an object) or a constant true/false; a number, text or list selects nothing sensible. */
const isRuleShape = (value: unknown) =>
  typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));

const issues = (value: unknown) =>
  value instanceof InvalidRuleText
    ? [{ path: '', message: `is not valid JSON (${value.error})` }]
    : value !== undefined && !isRuleShape(value)
      ? [{ path: '', message: 'must be a JSON-Logic rule: an object (or true / false)' }]
      : segmentRuleIssues(value);

/** A JSON-Logic rule over SEGMENT_VARIABLES (an object, or its JSON text in a form field). */
export function IsSegmentRule(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isSegmentRule',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => issues(value).length === 0,
        defaultMessage: (args: ValidationArguments) =>
          issues(args.value)
            .map((i) => `${args.property}${i.path ? `.${i.path}` : ''}: ${i.message}`)
            .join('; '),
      },
    });
}

/** Form bodies carry the rule as JSON text; JSON bodies as the object itself. */
export const parseRuleText = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (err) {
    return new InvalidRuleText(value, (err as Error).message);
  }
};
