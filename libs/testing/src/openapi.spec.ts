import { readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './harness';

interface Response {
  content?: Record<string, { schema?: unknown; example?: unknown }>;
  $ref?: string;
}

interface Operation {
  responses: Record<string, Response>;
  parameters?: { name: string; in: string }[];
  security?: unknown[];
}

const operations = (service: string) => {
  const doc = JSON.parse(readFileSync(path.join(repoRoot, 'openapi', `${service}.json`), 'utf8')) as {
    paths: Record<string, Record<string, Operation>>;
    components?: { responses?: Record<string, Response> };
  };
  // Responses shared by every route (the 429 of the rate limits) are references to components.responses.
  const resolve = (r: Response) => (r.$ref ? (doc.components?.responses?.[r.$ref.split('/').pop()!] ?? {}) : r);
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${route}`,
      method,
      op: { ...op, responses: Object.fromEntries(Object.entries(op.responses).map(([s, r]) => [s, resolve(r)])) },
    })),
  );
};

/** The services whose routes are fully documented (the others are shells; they join as they are built). */
const DOCUMENTED = ['checks', 'account', 'identity', 'engagement', 'validations', 'customers', 'pass'];

describe.each(DOCUMENTED)('openapi/%s.json', (service) => {
  it('documents the success answer of every route with a schema and, for JSON, an example', () => {
    const missing = operations(service)
      .filter(({ op }) => {
        const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        return (
          !success.length ||
          success.some(([, r]) => {
            const media = Object.entries(r.content ?? {});
            return (
              !media.length ||
              media.some(([type, m]) => !m.schema || (type === 'application/json' && m.example === undefined))
            );
          })
        );
      })
      .map((o) => o.name);
    expect(missing).toEqual([]);
  });

  it('documents errors in the envelope (or RFC 6749 where the spec says), 401 where a key is needed, Idempotency-Key on every keyed POST', () => {
    const problems: string[] = [];
    for (const { name, method, op } of operations(service)) {
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (!isPublic && !op.responses['401']) problems.push(`${name}: no 401`);
      for (const [status, r] of Object.entries(op.responses))
        // pass's OAuth endpoints answer RFC 6749 bodies where spec 3 says so (OAuthErrorDto)
        if (
          Number(status) >= 400 &&
          !/ErrorEnvelopeDto|OAuthErrorDto|"required":\["error"\]/.test(JSON.stringify(r.content ?? {}))
        )
          problems.push(`${name}: ${status} is not the envelope`);
      // Idempotency-Key is scoped to the key's tenant: a keyless route ignores it (docs/api.md)
      const idempotent = !!op.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header');
      if (method === 'post' && !isPublic && !idempotent) problems.push(`${name}: no Idempotency-Key header`);
      if (isPublic && idempotent) problems.push(`${name}: Idempotency-Key on a keyless route`);
    }
    expect(problems).toEqual([]);
  });
});
