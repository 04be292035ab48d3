import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateTenantDto } from './dto/create-tenant.dto';

describe('CreateTenantDto', () => {
  it('lowercases the admin e-mail and takes a repeated billing_hubs field as a list (uppercased)', () => {
    // a form body (the form parser builds objects outside Object's prototype chain)
    const form = Object.assign(Object.create(null) as object, {
      tenant_id: 'acme',
      name: 'Acme',
      admin_email: ' Admin@Acme.COM ',
      billing_hubs: 'hub-1',
    });
    const dto = plainToInstance(CreateTenantDto, form);
    expect(validateSync(dto)).toEqual([]);
    expect(dto.admin_email).toBe('admin@acme.com');
    expect(dto.billing_hubs).toEqual(['HUB-1']);
  });

  it('refuses a single hub sent as a JSON string', () => {
    const dto = plainToInstance(CreateTenantDto, {
      tenant_id: 'acme',
      name: 'Acme',
      admin_email: 'a@acme.com',
      billing_hubs: 'hub-1',
    });
    expect(toFieldErrors(validateSync(dto)).map((f) => f.field)).toEqual(['billing_hubs']);
  });

  it('names every bad field', () => {
    const dto = plainToInstance(CreateTenantDto, {
      tenant_id: 'Bad Id',
      admin_email: 'nope',
      billing_hubs: ['ok', 'not ok'],
    });
    expect(
      toFieldErrors(validateSync(dto))
        .map((f) => f.field)
        .sort(),
    ).toEqual(['admin_email', 'billing_hubs', 'name', 'tenant_id']);
  });
});
