import { ValidationFailedException } from '@kyc/platform';

import { VAR_COUNT_MAX, VAR_VALUE_MAX, varValuesOf } from './var-values';

const fieldsOf = (body: unknown) => {
  try {
    varValuesOf(body);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailedException);
    return (err as ValidationFailedException).fields.map((f) => f.field);
  }
};

describe('varValuesOf', () => {
  it('reads var.<name> fields and a var object, ignoring other fields', () => {
    expect(varValuesOf({ 'var.name': 'Ana', var: { order: '77' }, email: 'x' })).toEqual({ name: 'Ana', order: '77' });
    expect(varValuesOf(undefined)).toEqual({});
  });

  it('refuses non-string values, bad names, long values, too many variables and a non-object var', () => {
    expect(fieldsOf({ 'var.n': 5 })).toEqual(['var.n']);
    expect(fieldsOf({ 'var.bad-name': 'x' })).toEqual(['var.bad-name']);
    expect(fieldsOf({ 'var.n': 'x'.repeat(VAR_VALUE_MAX + 1) })).toEqual(['var.n']);
    expect(fieldsOf({ var: 'x' })).toEqual(['var']);
    const many = Object.fromEntries(Array.from({ length: VAR_COUNT_MAX + 1 }, (_, i) => [`var.v${i}`, 'x']));
    expect(fieldsOf(many)).toEqual(['var']);
  });
});
