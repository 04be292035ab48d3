import { getMetadataStorage, IsInt, IsString, Min, validateSync } from 'class-validator';

import { assertPatchableStorage, cacheValidationMetadata } from './metadata-cache';

class Base {
  @IsString()
  name!: string;
}
class Child extends Base {
  @IsInt()
  @Min(1)
  count!: number;
}

const failing = (o: object) =>
  validateSync(o)
    .flatMap((e) => Object.keys(e.constraints ?? {}).map((c) => `${e.property}:${c}`))
    .sort();

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('validates exactly as before, own and inherited rules, call after call', () => {
    const bad = Object.assign(new Child(), { name: 3, count: 0 });
    expect(failing(bad)).toEqual(['count:min', 'name:isString']);
    expect(failing(bad)).toEqual(['count:min', 'name:isString']);
    expect(failing(Object.assign(new Child(), { name: 'a', count: 2 }))).toEqual([]);
    expect(getMetadataStorage().getTargetValidationMetadatas(Child, '', true, false)).toBe(
      getMetadataStorage().getTargetValidationMetadatas(Child, '', true, false),
    );
  });

  it('forgets what it memoized when a class is decorated later', () => {
    expect(failing(Object.assign(new Child(), { name: 'a', count: 2 }))).toEqual([]);
    // A decorator applied after the first validations (e.g. a lazily loaded module).
    IsString()(Child.prototype, 'extra');
    expect(failing(Object.assign(new Child(), { name: 'a', count: 2, extra: 5 }))).toEqual(['extra:isString']);
  });

  it('installs once', () => {
    const storage = getMetadataStorage();
    const fn = Object.getOwnPropertyDescriptor(storage, 'getTargetValidationMetadatas')?.value as unknown;
    cacheValidationMetadata();
    expect(Object.getOwnPropertyDescriptor(storage, 'getTargetValidationMetadatas')?.value).toBe(fn);
  });

  it('refuses a class-validator release or storage it was not written for', () => {
    const storage = getMetadataStorage();
    expect(() => assertPatchableStorage(storage, '0.14.4')).not.toThrow();
    expect(() => assertPatchableStorage(storage, '0.15.0')).toThrow(/class-validator 0\.15\.0: .*review/);
    expect(() => assertPatchableStorage({ addValidationMetadata() {} }, '0.14.4')).toThrow(
      /has no getTargetValidationMetadatas, addConstraintMetadata, groupByPropertyName/,
    );
  });
});
