import { getMetadataStorage, ValidationTypes } from 'class-validator';

interface TransformMetadata {
  transformFn: (params: { value: unknown; key: string; obj: unknown; type: number; options: object }) => unknown;
  options?: { groups?: string[]; since?: number; until?: number };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- class-transformer exports no public API for its metadata
const { defaultMetadataStorage: transforms } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: {
    findTransformMetadatas(target: object, key: string, type: number): TransformMetadata[];
    getExposedMetadatas(target: object): unknown[];
    getExcludedMetadatas(target: object): unknown[];
  };
};

/** class-transformer's TransformationType.PLAIN_TO_CLASS. */
const PLAIN_TO_CLASS = 0;
/** The options parseCheckInputs gives plainToInstance (what a transform function is called with). */
const TRANSFORM_OPTIONS = { exposeDefaultValues: true };

type Validator = (value: unknown, args: object) => unknown;
interface CompiledProperty {
  /** @Transform functions (toClass), in class-transformer's order. */
  transforms: TransformMetadata['transformFn'][];
  /** IsOptional and other conditions: all true, or the property is not validated. */
  conditions: ((object: object, value: unknown) => boolean)[];
  /** The constraints' own validate functions with their arguments (the decorators' constraints). */
  validators: { validate: Validator; constraints: unknown[] }[];
}

/**
 * A fast path for `plainToInstance(Dto, plain)` + `validateSync(dto, { whitelist: true })` built
 * once from the DTO's own decorators (its class-transformer @Transform functions and its
 * class-validator constraints, called as those libraries call them), for the one case that needs
 * neither library's machinery: every key of `plain` a decorated property with a primitive value,
 * and every constraint passing. It returns the DTO instance the libraries would build, or undefined
 * whenever anything falls outside that case (an unknown key, an object, array or null value, a
 * failed constraint): the caller then runs the libraries, which give the exact errors. So errors
 * always come from class-validator, and a valid body costs a few function calls per field.
 * Returns null (no fast path) for a class with decorators this does not reproduce (nested, each,
 * groups, versions, @Expose/@Exclude, asynchronous constraints).
 */
export function compileDto<T extends object>(
  dto: new () => T,
): ((plain: Record<string, unknown>) => T | undefined) | null {
  if (transforms.getExposedMetadatas(dto).length || transforms.getExcludedMetadatas(dto).length) return null;
  const storage = getMetadataStorage();
  // As ValidationExecutor asks for them: no schema, always false, strictGroups false, no groups.
  const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false, undefined);
  const properties = new Map<string, CompiledProperty>();
  for (const m of metadatas) {
    if (m.groups?.length || m.each || m.always) return null;
    let p = properties.get(m.propertyName);
    if (!p) {
      const fns = transforms.findTransformMetadatas(dto, m.propertyName, PLAIN_TO_CLASS);
      if (
        fns.some((t) => t.options?.groups?.length || t.options?.since !== undefined || t.options?.until !== undefined)
      )
        return null;
      p = { transforms: fns.map((t) => t.transformFn), conditions: [], validators: [] };
      properties.set(m.propertyName, p);
    }
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION)
      p.conditions.push(m.constraints[0] as CompiledProperty['conditions'][number]);
    else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
      for (const c of storage.getTargetValidatorConstraints(m.constraintCls)) {
        if (c.async) return null;
        const instance = c.instance as { validate: Validator };
        p.validators.push({ validate: instance.validate.bind(instance), constraints: m.constraints });
      }
    } else return null;
  }
  const compiled = [...properties];
  const targetName = dto.name;

  return (plain) => {
    const out = new dto() as Record<string, unknown>;
    for (const key of Object.keys(plain)) {
      const p = properties.get(key);
      let value = plain[key];
      if (!p || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean'))
        return undefined;
      for (const fn of p.transforms)
        value = fn({ value, key, obj: plain, type: PLAIN_TO_CLASS, options: TRANSFORM_OPTIONS });
      if (value !== undefined) out[key] = value;
    }
    for (const [property, p] of compiled) {
      const value = out[property];
      if (!p.conditions.every((condition) => condition(out, value))) continue;
      for (const { validate, constraints } of p.validators)
        if (validate(value, { targetName, property, object: out, value, constraints }) !== true) return undefined;
    }
    return out as T;
  };
}
