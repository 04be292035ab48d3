import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateApiKeyDto } from './issue-api-key.dto';

const check = (body: Record<string, unknown>) => {
  const dto = plainToInstance(CreateApiKeyDto, body);
  return { dto, fields: toFieldErrors(validateSync(dto)).map((f) => f.field) };
};

describe('CreateApiKeyDto', () => {
  it('accepts the public aliases key_name and api_key_version', () => {
    const { dto, fields } = check({ key_type: 'backend', key_name: 'k', api_key_version: '1' });
    expect(fields).toEqual([]);
    expect(dto.api_key_version).toBe(1);
  });

  it('needs a name for backend keys and a version of 0 or 1', () => {
    expect(check({ key_type: 'backend', version: '2' }).fields.sort()).toEqual(['name', 'version']);
    expect(check({ key_type: 'web', name: 'k' }).fields).toEqual(['key_type']);
  });
});
