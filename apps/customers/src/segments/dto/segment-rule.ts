import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { segmentRuleIssues } from '../segment-variables';

/** A JSON-Logic rule over SEGMENT_VARIABLES (an object, or its JSON text in a form field). */
export function IsSegmentRule(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isSegmentRule',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => segmentRuleIssues(value).length === 0,
        defaultMessage: (args: ValidationArguments) =>
          segmentRuleIssues(args.value)
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
  } catch {
    return value;
  }
};
