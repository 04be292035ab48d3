import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The committed documents (openapi/*.json, `npm run openapi`) keep the rules a strictly typed
 * client needs: every schema has a type (or is a reference or composition), an object without
 * properties says it is free-form (`additionalProperties`), every path parameter is named as in its
 * path. The listed exceptions are values the server takes as any JSON (reviewed).
 */
const ANY_JSON = new Set([
  'account.json #CreateRuleDto.condition', // JSON-Logic: any JSON value, or its JSON text
  'account.json #UpdateRuleDto.condition',
  'account.json #RuleResponse.condition', // JSON-Logic as stored: an object or a literal (false, 0)
  'account.json #RuleVersionResponse.condition',
  'account.json #DryRunRuleDto.condition', // a condition to try: as on save
  'account.json #DryRunResponse.condition',
  'account.json #DryRunResponse.result', // what JSON-Logic gave: any JSON value
  'customers.json #SegmentResponse.rule',
  'checks.json #SaveCredentialDto.complements', // an object or a value, stored encrypted
  'identity.json #FlowStepResponse.validator_settings', // returned as configured
  'identity.json #ProcessStepResponse.instructions',
  'identity.json res 200 get /v1/sandbox/phone-messages.messages[]',
]);

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema };
const dir = path.resolve(__dirname, '../../../../openapi');

function problems(file: string): string[] {
  const doc = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const out: string[] = [];
  const walk = (s: Schema | undefined, where: string) => {
    if (!s || typeof s !== 'object' || s.$ref) return;
    const composed = ['allOf', 'oneOf', 'anyOf'].some((k) => k in s);
    if (!s.type && !composed && !s.enum && !ANY_JSON.has(`${file} ${where}`)) out.push(`no type: ${where}`);
    if (s.type === 'object' && !s.properties && s.additionalProperties === undefined && !composed)
      if (!ANY_JSON.has(`${file} ${where}`)) out.push(`object without properties or additionalProperties: ${where}`);
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`);
    if (s.items) walk(s.items, `${where}[]`);
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const x of (s[k] as Schema[] | undefined) ?? []) walk(x, where);
  };
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) walk(s, `#${name}`);
  for (const [p, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []) as { name: string; in: string; schema?: Schema }[];
      for (const name of [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]))
        if (!params.some((x) => x.in === 'path' && x.name === name)) out.push(`path parameter ${name} undeclared: ${p}`);
      for (const x of params) {
        if (x.in === 'path' && !p.includes(`{${x.name}}`)) out.push(`path parameter ${x.name} not in ${p}`);
        walk(x.schema, `param ${x.name} ${method} ${p}`);
      }
      const body = op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined;
      for (const c of Object.values(body?.content ?? {})) walk(c.schema, `req ${method} ${p}`);
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, { content?: Record<string, { schema?: Schema }> }>))
        for (const c of Object.values(r.content ?? {})) walk(c.schema, `res ${status} ${method} ${p}`);
      if (method === 'post' && Array.isArray(op.security) && op.security.length === 0)
        if (params.some((x) => x.name === 'Idempotency-Key')) out.push(`public POST documents Idempotency-Key: ${p}`);
    }
  return out;
}

describe('committed OpenAPI documents', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('are all there', () => expect(files.length).toBeGreaterThanOrEqual(7));

  it.each(files)('%s: every schema typed, free-form objects marked, path parameters named as in the path', (file) => {
    expect(problems(file)).toEqual([]);
  });
});
