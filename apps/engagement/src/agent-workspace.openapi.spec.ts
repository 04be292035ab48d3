import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every route of the agent workspace (/v1/engagement/…) documents its success answer with a schema
 * and, for JSON, an example, and its errors in the envelope (the rule libs/testing's openapi.spec
 * applies to whole services; engagement joins it once part 1's routes are documented too).
 */
describe('openapi/engagement.json: the agent workspace routes', () => {
  const doc = JSON.parse(
    readFileSync(path.join(__dirname, '..', '..', '..', 'openapi', 'engagement.json'), 'utf8'),
  ) as {
    paths: Record<
      string,
      Record<
        string,
        { responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }> }
      >
    >;
  };
  const ops = Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/v1/engagement/'))
    .flatMap(([p, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ id: `${method.toUpperCase()} ${p}`, op })),
    );

  it('covers the table of the spec', () => {
    expect(ops.length).toBeGreaterThanOrEqual(20);
  });

  it.each(ops.map((o) => [o.id, o.op] as const))('%s documents success and errors', (_, op) => {
    const success = Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
    expect(success.length).toBeGreaterThan(0);
    for (const [, r] of success) {
      const [type, media] = Object.entries(r.content ?? {})[0] ?? [];
      expect(media?.schema).toBeDefined();
      if (type === 'application/json') expect(media?.example).toBeDefined();
    }
    const errors = Object.keys(op.responses).filter((s) => /^[45]/.test(s));
    expect(errors.length).toBeGreaterThan(0);
  });
});
