import { ContractRecorder, PublishedContract } from './openapi-contract';

const document = {
  openapi: '3.0.2',
  paths: {
    '/v1/things/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/v1/things/health': {
      get: { responses: { '200': { content: { 'application/json': { schema: { type: 'array' } } } } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'score'],
        properties: {
          id: { type: 'string' },
          score: { type: 'number', format: 'float', minimum: 0, maximum: 1 },
          note: { type: 'string', nullable: true },
          at: { type: 'string', format: 'date-time' },
        },
        example: { id: 'x' },
      },
      Error: { required: ['code'], properties: { code: { type: 'string' } } },
    },
  },
};

const exchange = (path: string, status: number, body: unknown) => ({
  baseUrl: 'http://x',
  method: 'GET',
  path,
  status,
  contentType: 'application/json; charset=utf-8',
  body,
});

describe('PublishedContract', () => {
  const contract = new PublishedContract(document);

  it('validates a body against the documented schema of its route and status', () => {
    expect(contract.validate(exchange('/v1/things/T1', 200, { id: 'T1', score: 0.5, note: null }))).toEqual({
      method: 'GET',
      template: '/v1/things/{id}',
      status: 200,
      errors: [],
    });
    const bad = contract.validate(exchange('/v1/things/T1', 200, { id: 'T1', score: -1, at: '1990-01-01' }));
    expect(bad?.errors).toEqual([
      expect.stringContaining('/score must be >= 0'),
      expect.stringContaining('/at must match format "date-time"'),
    ]);
    expect(contract.validate(exchange('/v1/things/T1', 200, { score: 1 }))?.errors).toEqual([
      expect.stringContaining("must have required property 'id'"),
    ]);
  });

  it('prefers literal segments, and ignores undocumented routes and statuses', () => {
    expect(contract.validate(exchange('/v1/things/health', 200, []))?.template).toBe('/v1/things/health');
    expect(contract.validate(exchange('/v1/others', 200, {}))).toBeUndefined();
    expect(contract.validate(exchange('/v1/things/T1', 500, {}))).toBeUndefined();
  });

  it('applies declared deviations, and refuses one pointing nowhere', () => {
    expect(contract.validate(exchange('/v1/things/T1', 404, { code: 404 }))?.errors).toHaveLength(1);
    const lenient = new PublishedContract(document, [
      { pointer: '/components/schemas/Error/properties/code', schema: { type: 'integer' }, reason: 'test' },
    ]);
    expect(lenient.validate(exchange('/v1/things/T1', 404, { code: 404 }))?.errors).toEqual([]);
    expect(
      () => new PublishedContract(document, [{ pointer: '/components/schemas/Nope/x', schema: {}, reason: 'test' }]),
    ).toThrow(/not in the document/);
  });

  it('records one line per kind of violation', () => {
    let observer: ((e: ReturnType<typeof exchange>) => void) | undefined;
    const recorder = new ContractRecorder(contract).start((o) => {
      observer = o;
      return () => undefined;
    });
    observer?.(exchange('/v1/things/A', 200, { id: 'A', score: 2 }));
    observer?.(exchange('/v1/things/B', 200, { id: 'B', score: 3 }));
    const report = recorder.finish();
    expect(report.violations).toEqual([expect.stringMatching(/^GET \/v1\/things\/\{id\} 200: \/score must be <= 1/)]);
    expect([...report.covered]).toEqual(['GET /v1/things/{id} 200']);
  });
});
