
import { finishOpenApiDocument } from './openapi-document';

const op = (operationId: string) => ({ operationId, responses: { '200': { description: 'ok' } } });

describe('finishOpenApiDocument', () => {
  it('documents a 405 where a path parameter can spell a fixed path that does not take the method', () => {
    const document = finishOpenApiDocument({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/v1/customers/query': { post: op('query') },
        '/v1/customers/{customer_id}': { get: op('get'), post: op('update') },
        '/v1/customers/{customer_id}/transactions': { get: op('transactions') },
      },
    });
    const paths = document.paths;
    expect(paths['/v1/customers/{customer_id}'].get!.responses['405']).toMatchObject({
      description: expect.stringContaining('`/v1/customers/query`'),
      content: { 'application/json': { example: { code: 405, error_code: 'method_not_allowed' } } },
    });
    // The fixed path takes POST, so a POST reaches it as a POST: no 405; nothing shadows the longer path.
    expect(paths['/v1/customers/{customer_id}'].post!.responses['405']).toBeUndefined();
    expect(paths['/v1/customers/{customer_id}/transactions'].get!.responses['405']).toBeUndefined();
  });
});
