import { closeDb } from '@kyc/testing';

import { expectError, startValidationsStack, ValidationsStack } from './validations-helpers';

const configOf = async (s: ValidationsStack, validator: string) => {
  const res = await s.api.get('/v1/config');
  expect(res.status).toBe(200);
  return res.body.config.find((c: { validator: string }) => c.validator === validator);
};

describe('validations: validator configuration', () => {
  let s: ValidationsStack;

  beforeAll(async () => {
    s = await startValidationsStack();
  });

  afterAll(async () => {
    await s?.close();
    await closeDb();
  });

  it('answers every validator with its defaults', async () => {
    const res = await s.api.get('/v1/config');
    expect(res.body.config.map((c: { validator: string }) => c.validator).sort()).toEqual([
      'document-validation',
      'email-verification',
      'face-recognition',
      'phone-verification',
    ]);
    expect(await configOf(s, 'face-recognition')).toMatchObject({
      threshold: 0.65,
      timeout: 300,
      allowed_retries: 0,
      retry_ttl: 300,
      use_manual_review: 'disabled',
      include_face_search: false,
    });
    expect(await configOf(s, 'email-verification')).toMatchObject({ timeout: 300, allowed_retries: 2 });
    expect(await configOf(s, 'document-validation')).toMatchObject({
      timeout: 300,
      allowed_retries: 0,
      retry_ttl: 300,
    });
  });

  it('accepts each bound at its limit', async () => {
    for (const body of [
      { validator: 'face-recognition', threshold: '1', timeout: '21600', allowed_retries: '2', retry_ttl: '300' },
      { validator: 'document-validation', timeout: '21600', allowed_retries: '3', retry_ttl: '1800' },
      { validator: 'email-verification', timeout: '600', allowed_retries: '4' },
      { validator: 'phone-verification', timeout: '600', allowed_retries: '4', custom_name: 'x'.repeat(30) },
    ]) {
      const res = await s.api.put('/v1/config', body);
      expect(res.status).toBe(200);
    }
    expect(await configOf(s, 'document-validation')).toMatchObject({
      timeout: 21600,
      allowed_retries: 3,
      retry_ttl: 1800,
    });
    for (const validator of ['face-recognition', 'document-validation', 'email-verification', 'phone-verification'])
      expect((await s.api.delete(`/v1/config?validator=${validator}`)).status).toBe(200);
  });

  it.each([
    ['validator', { validator: 'face-search', timeout: '10' }],
    ['validator', { timeout: '10' }],
    ['threshold', { validator: 'face-recognition', threshold: '1.01' }],
    ['threshold', { validator: 'face-recognition', threshold: '-0.1' }],
    ['threshold', { validator: 'email-verification', threshold: '0.5' }],
    ['timeout', { validator: 'email-verification', timeout: '601' }],
    ['timeout', { validator: 'phone-verification', timeout: '601' }],
    ['timeout', { validator: 'document-validation', timeout: '21601' }],
    ['timeout', { validator: 'face-recognition', timeout: '0' }],
    ['timeout', { validator: 'face-recognition', timeout: 'soon' }],
    ['allowed_retries', { validator: 'document-validation', allowed_retries: '4' }],
    ['allowed_retries', { validator: 'face-recognition', allowed_retries: '3' }],
    ['allowed_retries', { validator: 'email-verification', allowed_retries: '5' }],
    ['allowed_retries', { validator: 'phone-verification', allowed_retries: '-1' }],
    ['retry_ttl', { validator: 'document-validation', retry_ttl: '1801' }],
    ['retry_ttl', { validator: 'face-recognition', retry_ttl: '301' }],
    ['retry_ttl', { validator: 'face-recognition', retry_ttl: '0' }],
    ['retry_ttl', { validator: 'email-verification', retry_ttl: '10' }],
    ['use_manual_review', { validator: 'document-validation', use_manual_review: 'yes' }],
    ['use_manual_review', { validator: 'phone-verification', use_manual_review: 'enabled' }],
    ['include_face_search', { validator: 'face-recognition', include_face_search: 'maybe' }],
    ['include_face_search', { validator: 'document-validation', include_face_search: 'true' }],
    ['enrollment_timeout', { validator: 'face-recognition', enrollment_timeout: '21601' }],
    ['custom_name', { validator: 'phone-verification', custom_name: 'x'.repeat(31) }],
    ['custom_name', { validator: 'email-verification', custom_name: 'Acme' }],
    ['support_email', { validator: 'email-verification', support_email: 'nope' }],
    ['email_subject', { validator: 'phone-verification', email_subject: 'Hi' }],
    [
      'country',
      { validator: 'document-validation', country: 'CR', document_type: 'national-id', data_consistency: 'disabled' },
    ],
    ['country', { validator: 'document-validation', document_type: 'national-id', data_consistency: 'disabled' }],
    ['document_type', { validator: 'document-validation', country: 'CO', data_consistency: 'disabled' }],
    ['document_version', { validator: 'document-validation', country: 'CO', document_version: 'mx_ine-c' }],
    ['document_version', { validator: 'document-validation', country: 'MX', document_version: 'mx_ine-z' }],
    [
      'government_database',
      { validator: 'document-validation', country: 'CO', document_type: 'national-id', government_database: 'on' },
    ],
    ['country', { validator: 'face-recognition', country: 'CO' }],
  ])('refuses a bad %s with 400 and changes nothing', async (field, body) => {
    const before = (await s.api.get('/v1/config')).body;
    expectError(await s.api.put('/v1/config', body), 400, 'validation_failed', field);
    expect((await s.api.get('/v1/config')).body).toEqual(before);
  });

  it('needs an operator activation before face-recognition uses manual review', async () => {
    expectError(
      await s.api.put('/v1/config', { validator: 'face-recognition', use_manual_review: 'enabled' }),
      403,
      'face_manual_review_not_activated',
    );
    await s.operator.put(`/v1/admin/tenants/${s.tenant.tenantId}/validation-features`, { face_manual_review: 'true' });
    expect(
      (await s.api.put('/v1/config', { validator: 'face-recognition', use_manual_review: 'enabled' })).status,
    ).toBe(200);
    await s.api.delete('/v1/config?validator=face-recognition');
  });

  const nonDefault: Record<string, Record<string, Record<string, string>>> = {
    'document-validation': {
      timeout: { timeout: '900' },
      allowed_retries: { allowed_retries: '2' },
      use_manual_review: { use_manual_review: 'enabled' },
      retry_ttl: { retry_ttl: '60' },
    },
    'face-recognition': {
      threshold: { threshold: '0.8' },
      timeout: { timeout: '900' },
      enrollment_timeout: { enrollment_timeout: '1200' },
      use_manual_review: { use_manual_review: 'enabled' },
      include_face_search: { include_face_search: 'true' },
    },
    'email-verification': {
      timeout: { timeout: '120' },
      allowed_retries: { allowed_retries: '4' },
      email_subject: { email_subject: 'Tu código' },
      email_title: { email_title: 'Hola' },
      email_text_1: { email_text_1: 'Antes' },
      email_text_2: { email_text_2: 'Después' },
      support_email: { support_email: 'help@acme.test' },
    },
    'phone-verification': {
      allowed_retries: { allowed_retries: '0' },
      timeout: { timeout: '60' },
      custom_name: { custom_name: 'Acme' },
    },
  };
  const cases = Object.entries(nonDefault).flatMap(([validator, types]) =>
    Object.entries(types).map(([type, body]) => [validator, type, body] as const),
  );

  it.each(cases)('resets %s %s to its default and leaves the other fields', async (validator, type, body) => {
    await s.operator.put(`/v1/admin/tenants/${s.tenant.tenantId}/validation-features`, { face_manual_review: 'true' });
    const defaults = await configOf(s, validator);
    const other =
      validator === 'phone-verification' && type !== 'custom_name' ? { custom_name: 'Keep' } : { timeout: '299' };
    const put = await s.api.put('/v1/config', { validator, ...body, ...(type === 'timeout' ? {} : other) });
    expect(put.status).toBe(200);
    expect((await configOf(s, validator))[type]).not.toEqual(defaults[type]);
    const res = await s.api.delete(`/v1/config?validator=${validator}&type=${type}`);
    expect(res.status).toBe(200);
    const after = await configOf(s, validator);
    expect(after[type]).toEqual(defaults[type]);
    if (type !== 'timeout') {
      const [key, value] = Object.entries(other)[0];
      expect(String(after[key])).toBe(value);
    }
    await s.api.delete(`/v1/config?validator=${validator}`);
  });

  it('resets document_config to the document version defaults (one country with name, or all)', async () => {
    for (const body of [
      {
        country: 'MX',
        document_version: ['mx_ine-d', 'mx_ine-e'],
        document_type: 'national-id',
        photocopy_detection: 'disabled',
      },
      { country: 'CO', document_type: 'national-id', government_database: 'enabled' },
    ])
      expect((await s.api.put('/v1/config', { validator: 'document-validation', ...body })).status).toBe(200);
    let doc = await configOf(s, 'document-validation');
    expect(doc.document_config).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          country: 'MX',
          document_version: ['mx_ine-d', 'mx_ine-e'],
          document_types: [
            expect.objectContaining({
              document_type: 'national-id',
              photocopy_detection: 'disabled',
              data_consistency: 'enabled',
            }),
          ],
        }),
      ]),
    );
    const selection = await s.api.get('/v1/config/document-selection');
    const mx = selection.body.countries.find((c: { country: string }) => c.country === 'MX');
    expect(
      mx.document_types.find((t: { document_type: string }) => t.document_type === 'national-id').document_versions,
    ).toEqual(['mx_ine-d', 'mx_ine-e']);
    expect((await s.api.delete('/v1/config?validator=document-validation&type=document_config&name=MX')).status).toBe(
      200,
    );
    doc = await configOf(s, 'document-validation');
    expect(doc.document_config.map((c: { country: string }) => c.country)).toEqual(['CO']);
    expect((await s.api.delete('/v1/config?validator=document-validation&type=document_config')).status).toBe(200);
    expect((await configOf(s, 'document-validation')).document_config).toEqual([]);
    const after = await s.api.get('/v1/config/document-selection');
    const mxAfter = after.body.countries.find((c: { country: string }) => c.country === 'MX');
    expect(
      mxAfter.document_types.find((t: { document_type: string }) => t.document_type === 'national-id')
        .document_versions,
    ).toHaveLength(5);
  });

  it.each([
    ['type', 'validator=email-verification&type=threshold'],
    ['type', 'validator=phone-verification&type=email_subject'],
    ['type', 'validator=document-validation&type=include_face_search'],
    ['validator', 'type=timeout'],
    ['validator', 'validator=face-search'],
    ['name', 'validator=document-validation&type=timeout&name=CO'],
  ])('refuses a reset with a bad %s', async (field, query) => {
    expectError(await s.api.delete(`/v1/config?${query}`), 400, 'validation_failed', field);
  });

  it('answers the document infographic and the status from real state', async () => {
    const info = await s.api.get('/v1/document-infographic?country=co&document_type=national-id');
    expect(info.status).toBe(200);
    expect(info.body.documents).toEqual([
      expect.objectContaining({
        country: 'CO',
        document_type: 'national-id',
        sides: [
          expect.objectContaining({ side: 'front' }),
          expect.objectContaining({ side: 'reverse', shows: expect.arrayContaining(['mrz']) }),
        ],
      }),
    ]);
    expectError(await s.api.get('/v1/document-infographic?country=AR'), 400, 'validation_failed', 'country');
    const status = await s.api.get('/v1/status');
    expect(status.status).toBe(200);
    expect(status.body.database.status).toBe('operational');
    expect(status.body.services.map((x: { name: string }) => x.name)).toEqual([
      'document-validation',
      'face-recognition',
      'face-search',
      'email-verification',
      'phone-verification',
    ]);
    expect(status.body.services.find((x: { name: string }) => x.name === 'email-verification').status).toBe(
      'operational',
    );
  });
});
