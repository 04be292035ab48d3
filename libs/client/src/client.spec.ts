import { createKycClient } from './index';

describe('createKycClient', () => {
  it('sends the API key and the JSON body to the service URL, and types the answer', async () => {
    const seen: Request[] = [];
    const fetch = (input: Request) => {
      seen.push(input);
      const body = { check: { check_id: 'CHK1' }, details: '/v1/checks/CHK1/details', self: '/v1/checks/CHK1' };
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: 201, headers: { 'content-type': 'application/json' } }),
      );
    };
    const client = createKycClient('checks', { baseUrl: 'http://checks.test', apiKey: 'key-1', fetch });
    const { data } = await client.POST('/v1/checks', {
      body: { country: 'CO', type: 'person', user_authorized: true, national_id: '1' },
    });
    expect(data?.check.check_id).toBe('CHK1');
    expect(seen[0].url).toBe('http://checks.test/v1/checks');
    expect(seen[0].headers.get('Service-API-Key')).toBe('key-1');
    expect(await seen[0].json()).toMatchObject({ country: 'CO', national_id: '1' });
  });

  it('returns the error envelope of a refusal as `error`', async () => {
    const envelope = { code: 404, status: 'Not Found', message: 'Check not found', error_code: 'check_not_found' };
    const fetch = () =>
      Promise.resolve(
        new Response(JSON.stringify(envelope), { status: 404, headers: { 'content-type': 'application/json' } }),
      );
    const client = createKycClient('checks', { baseUrl: 'http://checks.test', apiKey: 'key-1', fetch });
    const { data, error } = await client.GET('/v1/checks/{check_id}', { params: { path: { check_id: 'CHK-none' } } });
    expect(data).toBeUndefined();
    expect(error).toEqual(envelope);
  });
});
