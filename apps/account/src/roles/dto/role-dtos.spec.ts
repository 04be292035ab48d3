import { PERMISSIONS } from '@kyc/contracts';
import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateRoleDto } from './create-role.dto';
import { UpdateRoleDto } from './update-role.dto';

/** As JSON.parse builds the body, or the form parser (`form`: no prototype). */
const check = (body: Record<string, unknown>, cls: new () => object = CreateRoleDto, form = false) => {
  const dto = plainToInstance(cls, form ? Object.assign(Object.create(null) as object, body) : body) as CreateRoleDto;
  return { dto, fields: toFieldErrors(validateSync(dto)) };
};

describe('CreateRoleDto', () => {
  it('takes a repeated permissions field as a list, without duplicates', () => {
    const single = check({ name: 'analyst', permissions: 'checks.country_co' }, CreateRoleDto, true);
    expect(single.dto.permissions).toEqual(['checks.country_co']);
    // JSON sends the list itself: a single value is refused, not wrapped
    expect(check({ name: 'analyst', permissions: 'checks.country_co' }).fields.map((f) => f.field)).toEqual([
      'permissions',
    ]);
    const { dto, fields } = check({
      name: 'analyst',
      permissions: ['checks.country_co', 'checks.country_co', 'svc.keys'],
    });
    expect(fields).toEqual([]);
    expect(dto.permissions).toEqual(['checks.country_co', 'svc.keys']);
  });

  it('accepts every permission of the spec list and names the unknown ones', () => {
    expect(check({ name: 'all', permissions: [...PERMISSIONS] }).fields).toEqual([]);
    const { fields } = check({ name: 'analyst', permissions: ['checks.country_co', 'checks.country_xx', 'admin'] });
    expect(fields).toEqual([
      { field: 'permissions', message: expect.stringContaining('"checks.country_xx", "admin"') },
    ]);
  });

  it('validates role names', () => {
    expect(check({ name: 'risk-analysts.co_2' }).fields).toEqual([]);
    for (const bad of ['', ' ', 'has space', '-dash-first', 'x'.repeat(65), 'a/b'])
      expect(check({ name: bad }).fields.map((f) => f.field)).toEqual(['name']);
    expect(check({}).fields.map((f) => f.field)).toEqual(['name']);
  });

  it('takes access rules as JSON text (form) or objects (JSON), each checked for JSON, operators and fields', () => {
    expect(check({ name: 'r', access_rules: '{"==":[{"var":"country"},"CO"]}' }, CreateRoleDto, true).fields).toEqual(
      [],
    );
    expect(check({ name: 'r', access_rules: '{"==":[{"var":"country"},"CO"]}' }).fields.map((f) => f.field)).toEqual([
      'access_rules',
    ]);
    expect(
      check({ name: 'r', access_rules: [{ in: [{ var: 'country' }, ['CO', 'MX']] }, '{">=":[{"var":"score"},0.5]}'] })
        .fields,
    ).toEqual([]);
    const cases: [unknown, RegExp][] = [
      ['{"==":[{"var":"country"},"CO"]', /not valid JSON/],
      ['{"cat":["a","b"]}', /operator "cat" is not supported/],
      ['{"frob":[1]}', /unknown operator "frob"/],
      ['{"==":[{"var":"password"},"x"]}', /unknown field "password"/],
      ['{"==":[{"var":"country"},1]}', /text-to-number conversion/],
      ['"CO"', /must be a JSON-Logic operation/],
      ['true', /must be a JSON-Logic operation/],
    ];
    for (const [rule, message] of cases) {
      const { fields } = check({ name: 'r', access_rules: ['{"==":[{"var":"country"},"CO"]}', rule] });
      expect(fields).toEqual([{ field: 'access_rules', message: expect.stringMatching(/^access_rules\[1\]: /) }]);
      expect(fields[0].message).toMatch(message);
    }
  });

  it('bounds the number and length of access rules', () => {
    const rule = '{"==":[{"var":"country"},"CO"]}';
    expect(check({ name: 'r', access_rules: Array(21).fill(rule) }).fields.map((f) => f.field)).toEqual([
      'access_rules',
    ]);
    expect(
      check({ name: 'r', access_rules: [`{"in":[{"var":"country"},[${Array(800).fill('"CO"').join(',')}]]}`] })
        .fields[0].message,
    ).toMatch(/longer than/);
  });
});

describe('UpdateRoleDto', () => {
  it('makes every field optional', () => {
    expect(check({}, UpdateRoleDto).fields).toEqual([]);
    expect(check({ permissions: 'nope' }, UpdateRoleDto).fields.map((f) => f.field)).toEqual(['permissions']);
  });
});
