import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateTenantDto } from './dto/create-tenant.dto';

describe('CreateTenantDto', () => {
  it('lowercases the admin e-mail and takes a repeated billing_hubs field as a list (uppercased)', () => {
    const dto = plainToInstance(CreateTenantDto, {
      tenant_id: 'acme',
      name: 'Acme',
      admin_email: ' Admin@Acme.COM ',
      billing_hubs: 'hub-1',
    });
    expect(validateSync(dto)).toEqual([]);
    expect(dto.admin_email).toBe('admin@acme.com');
    expect(dto.billing_hubs).toEqual(['HUB-1']);
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
