import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateApiKeyDto } from './issue-api-key.dto';

/** As the form parser (`form`: no prototype) or JSON.parse builds the body. */
const check = (body: Record<string, unknown>, form = false) => {
  const dto = plainToInstance(CreateApiKeyDto, form ? Object.assign(Object.create(null) as object, body) : body);
  return { dto, fields: toFieldErrors(validateSync(dto)).map((f) => f.field) };
};

describe('CreateApiKeyDto', () => {
  it('accepts the public aliases key_name and api_key_version', () => {
    const { dto, fields } = check({ key_type: 'backend', key_name: 'k', api_key_version: '1' }, true);
    expect(fields).toEqual([]);
    expect(dto.api_key_version).toBe(1);
    expect(check({ key_type: 'backend', key_name: 'k', api_key_version: 1 }).fields).toEqual([]);
  });

  it('in JSON, takes a version as a number only (text is a form field; a list or boolean is refused)', () => {
    expect(check({ key_type: 'backend', key_name: 'k', api_key_version: '1' }).fields).toEqual(['api_key_version']);
    expect(check({ key_type: 'backend', key_name: 'k', api_key_version: [1] }).fields).toEqual(['api_key_version']);
    expect(check({ key_type: 'backend', key_name: 'k', version: 1, api_key_version: true }).fields).toEqual([
      'api_key_version',
    ]);
  });

  it('checks a name given with its alias or for a web key too (at most 128 characters)', () => {
    expect(check({ key_type: 'backend', key_name: 'k', name: 'x'.repeat(129) }).fields).toEqual(['name']);
    expect(check({ key_type: 'sdk', grant: 'signals', name: 'x'.repeat(129) }).fields).toEqual(['name']);
  });

  it('needs a name for backend keys and a version of 0 or 1', () => {
    expect(check({ key_type: 'backend', version: '2' }).fields.sort()).toEqual(['name', 'version']);
    expect(check({ key_type: 'other', name: 'k' }).fields).toEqual(['key_type']);
  });

  it('needs a grant for web and sdk keys, and flow, country, redirect_url for digital-identity', () => {
    expect(check({ key_type: 'web' }).fields).toEqual(['grant']);
    expect(check({ key_type: 'sdk', grant: 'signals' }).fields).toEqual([]);
    expect(check({ key_type: 'web', grant: 'digital-identity' }).fields.sort()).toEqual([
      'country',
      'flow',
      'redirect_url',
    ]);
    const ok = {
      key_type: 'web',
      grant: 'digital-identity',
      flow_id: 'IDF1',
      country: 'CO',
      redirect_url: 'https://x.test/',
    };
    expect(check(ok).fields).toEqual([]);
    expect(check({ ...ok, country: 'US' }).fields).toEqual(['country']);
    expect(check({ ...ok, account_id: 'a b' }).fields).toEqual(['account_id']);
    expect(check({ ...ok, emails: ['nope'] }).fields).toEqual(['emails']);
    expect(check({ ...ok, phone: '3001234567' }).fields).toEqual(['phone']);
    expect(check({ ...ok, document_type: 'visa' }).fields).toEqual(['document_type']);
  });
});
