import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { ChangeUserStatusDto } from './change-user-status.dto';
import { CreateUserDto } from './create-user.dto';
import { DeleteUserDto } from './delete-user.dto';
import { ListUsersQuery } from './list-users.query';
import { UpdateUserDto } from './update-user.dto';

const check = <T extends object>(cls: new () => T, body: Record<string, unknown>) => {
  const dto = plainToInstance(cls, body);
  return { dto, fields: toFieldErrors(validateSync(dto)) };
};
const badFields = <T extends object>(cls: new () => T, body: Record<string, unknown>) =>
  check(cls, body)
    .fields.map((f) => f.field)
    .sort();

describe('CreateUserDto', () => {
  it('accepts a full user, lowercasing the e-mail and uppercasing the country', () => {
    const { dto, fields } = check(CreateUserDto, {
      email: ' Ana.Perez+kyc@Acme.COM ',
      country: 'co',
      phone_number: '+573001234567',
      language: 'es',
      role: 'analyst',
      billing_hub: 'HUB-1',
      display_name: ' Ana ',
    });
    expect(fields).toEqual([]);
    expect(dto).toMatchObject({ email: 'ana.perez+kyc@acme.com', country: 'CO', display_name: 'Ana' });
  });

  it('needs only the e-mail', () => {
    expect(badFields(CreateUserDto, { email: 'a@b.co' })).toEqual([]);
    expect(badFields(CreateUserDto, {})).toEqual(['email']);
  });

  it('names every bad field', () => {
    expect(
      badFields(CreateUserDto, {
        email: 'not-an-email',
        country: 'XX',
        phone_number: '3001234567',
        language: 'fr',
        role: 5,
        billing_hub: ['a', 'b'],
        display_name: 'x'.repeat(201),
      }),
    ).toEqual(['billing_hub', 'country', 'display_name', 'email', 'language', 'phone_number', 'role']);
  });

  it('checks the country against the ISO 3166-1 list, not just its shape', () => {
    expect(badFields(CreateUserDto, { email: 'a@b.co', country: 'ZZ' })).toEqual(['country']);
    expect(badFields(CreateUserDto, { email: 'a@b.co', country: 'COL' })).toEqual(['country']);
    expect(badFields(CreateUserDto, { email: 'a@b.co', country: 'MX' })).toEqual([]);
  });

  it('takes E.164 phone numbers only', () => {
    for (const bad of ['+0573001234567', '+57 300 123 4567', '+1234567890123456', '573001234567', ''])
      expect(badFields(CreateUserDto, { email: 'a@b.co', phone_number: bad })).toEqual(['phone_number']);
    expect(badFields(CreateUserDto, { email: 'a@b.co', phone_number: '+5511987654321' })).toEqual([]);
  });
});

describe('UpdateUserDto', () => {
  it('accepts any subset of role, billing_hub, display_name, phone_number; empty display_name and phone_number clear them', () => {
    expect(badFields(UpdateUserDto, {})).toEqual([]);
    expect(badFields(UpdateUserDto, { display_name: '', phone_number: '' })).toEqual([]);
    expect(badFields(UpdateUserDto, { phone_number: '300' })).toEqual(['phone_number']);
  });
});

describe('ChangeUserStatusDto', () => {
  it('requires a status of enabled or disabled and a non-blank reason', () => {
    expect(badFields(ChangeUserStatusDto, { status: 'disabled', reason: 'left the company' })).toEqual([]);
    expect(badFields(ChangeUserStatusDto, { status: 'disabled' })).toEqual(['reason']);
    expect(badFields(ChangeUserStatusDto, { status: 'disabled', reason: '   ' })).toEqual(['reason']);
    expect(badFields(ChangeUserStatusDto, { status: 'blocked', reason: 'x' })).toEqual(['status']);
  });
});

describe('DeleteUserDto and ListUsersQuery', () => {
  it('needs an e-mail to delete, lowercased', () => {
    expect(check(DeleteUserDto, { email: 'Ana@Acme.com' }).dto.email).toBe('ana@acme.com');
    expect(badFields(DeleteUserDto, {})).toEqual(['email']);
  });

  it('bounds the page size', () => {
    expect(badFields(ListUsersQuery, { limit: '0' })).toEqual(['limit']);
    expect(badFields(ListUsersQuery, { limit: '101' })).toEqual(['limit']);
    expect(check(ListUsersQuery, { limit: '50' }).dto.limit).toBe(50);
  });
});
