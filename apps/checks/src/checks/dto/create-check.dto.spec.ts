import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { toFieldErrors } from '@kyc/platform';
import { CreateCheckDto } from './create-check.dto';

const fieldsOf = (body: Record<string, unknown>) =>
  toFieldErrors(validateSync(plainToInstance(CreateCheckDto, body), { whitelist: true })).map((f) => f.field).sort();

describe('CreateCheckDto', () => {
  it('accepts a minimal person check with form strings', () => {
    const dto = plainToInstance(CreateCheckDto, { country: 'CO', type: 'person', user_authorized: 'true', force_creation: 'FALSE' });
    expect(validateSync(dto)).toEqual([]);
    expect(dto.user_authorized).toBe(true);
    expect(dto.force_creation).toBe(false);
  });

  it.each([
    [{ country: 'AR' }, 'country'],
    [{ user_authorized: 'yes' }, 'user_authorized'],
    [{ custom_input: 'x'.repeat(129) }, 'custom_input'],
    [{ date_of_birth: '1990-13-01' }, 'date_of_birth'],
    [{ date_of_birth: '01/02/1990' }, 'date_of_birth'],
    [{ issue_date: '2020-1-1' }, 'issue_date'],
    [{ gender: 'x' }, 'gender'],
    [{ native_country: 'AR' }, 'native_country'],
    [{ document_type: 'license' }, 'document_type'],
    [{ phone_number: '12' }, 'phone_number'],
  ])('refuses %j naming %s', (bad, field) => {
    expect(fieldsOf({ country: 'CO', type: 'person', ...bad })).toEqual([field]);
  });

  it('accepts every gender value of the spec', () => {
    for (const gender of ['male', 'masculino', 'hombre', 'h', 'female', 'femenino', 'mujer', 'm']) expect(fieldsOf({ country: 'MX', type: 'person', gender })).toEqual([]);
  });

  it('accepts a 128-character custom_input', () => {
    expect(fieldsOf({ country: 'CO', type: 'person', custom_input: 'x'.repeat(128) })).toEqual([]);
  });
});
