// The TypeScript client (libs/client: openapi-fetch over the types generated from openapi/*.json)
// against a running stack: what an adopter writes with it compiles against the published documents
// and works end to end. Paths, parameters and bodies are checked by the compiler; every answer is
// also validated at run time against its documented schema, strictly (an object schema admits only
// the fields it declares; a value of another type fails), as the other languages' generated models do.
//
// Run by tools/api/prove.mjs: node dist/libs/testing/src/client-proof/prove.js <stack.json>. Prints
// one line per step, "ok <step>", "FAIL <step>: <why>" or "skip <step>: <why>"; exits 1 when one failed.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { createKycClient, type ServicePaths } from '@kyc/client';

import { PublishedContract } from '../openapi-contract';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every object schema that does not say otherwise admits only its declared properties. */
function strict(node: Json): Json {
  if (Array.isArray(node)) return node.map(strict);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'example' ? value : strict(value);
  if (out.type === 'object' && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const repoRoot = path.resolve(__dirname, '../../../../..');
const stack = JSON.parse(readFileSync(process.argv[2], 'utf8')) as {
  services: Record<string, string>;
  api_key: string;
};
let failed = false;

/** A client of one service whose every JSON answer is validated against the service's document, strictly. */
function client<S extends keyof ServicePaths>(service: S) {
  const document = JSON.parse(readFileSync(path.join(repoRoot, 'openapi', `${service}.json`), 'utf8')) as Json;
  const contract = new PublishedContract(strict(document) as object);
  const strictFetch = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    const text = await response.clone().text();
    const contentType = response.headers.get('content-type');
    const result = contract.validate({
      baseUrl: stack.services[service],
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      contentType,
      body: contentType?.includes('json') && text ? JSON.parse(text) : text,
    });
    if (!result)
      throw new Error(`${request.method} ${new URL(request.url).pathname} ${response.status} is not documented`);
    if (result.errors.length)
      throw new Error(
        `${result.method} ${result.template} ${result.status} does not decode: ${result.errors.join('; ')}`,
      );
    return response;
  };
  return createKycClient(service, { baseUrl: stack.services[service], apiKey: stack.api_key, fetch: strictFetch });
}

/** The answer's data, or an error with the envelope of a refusal. */
function data<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined)
    throw new Error(`${answer.response.status} ${JSON.stringify(answer.error ?? null).slice(0, 300)}`);
  return answer.data;
}

async function step<T>(name: string, ready: boolean, fn: () => Promise<T>): Promise<T | undefined> {
  if (!ready) {
    console.log(`skip ${name}: an earlier step failed`);
    return undefined;
  }
  try {
    const value = await fn();
    console.log(`ok ${name}`);
    return value;
  } catch (err) {
    failed = true;
    console.log(
      `FAIL ${name}: ${String((err as Error).message)
        .replace(/\s+/g, ' ')
        .slice(0, 400)}`,
    );
    return undefined;
  }
}

async function eventually(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached in 60 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<void> {
  const checks = client('checks');
  const identity = client('identity');
  const engagement = client('engagement');
  const customers = client('customers');
  const validations = client('validations');
  const run = String(Date.now());

  // A background check, then its scores once it has finished.
  const check = await step('check.create', true, async () =>
    data(
      await checks.POST('/v1/checks', {
        body: { country: 'CO', type: 'person', user_authorized: true, national_id: '79111222', first_name: 'Ana' },
      }),
    ),
  );
  await step('check.scores', !!check, async () => {
    const id = check!.check.check_id;
    await eventually(
      'the check finished',
      async () =>
        data(await checks.GET('/v1/checks/{check_id}', { params: { path: { check_id: id } } })).check.status !==
        'in_progress',
    );
    return data(await checks.GET('/v1/checks/{check_id}/details', { params: { path: { check_id: id } } }));
  });

  // An identity flow and a web key for it.
  const flow = await step('flow.create', true, async () =>
    data(
      await identity.POST('/v1/flows', {
        // timeout_seconds has a default, yet the generated type requires it (openapi-typescript's defaultNonNullable).
        body: {
          name: `typescript client ${run}`,
          steps: [{ type: 'email' }],
          redirect_url: 'https://example.com/done',
          timeout_seconds: 3600,
        },
      }),
    ),
  );
  await step('webkey.create', !!flow, async () =>
    data(
      await identity.POST('/v1/api-keys', {
        body: {
          key_type: 'web',
          grant: 'digital-identity',
          flow_id: flow!.flow_id,
          country: 'CO',
          redirect_url: 'https://example.com/done',
        },
      }),
    ),
  );

  // A message through the sandbox WhatsApp provider: an outbound template, approved, then sent.
  const line = await step(
    'message.line',
    true,
    async () => data(await engagement.GET('/v1/msg/lines', {}))[0].waba_line,
  );
  const outbound = await step('message.outbound', !!line, async () =>
    data(
      await engagement.POST('/v1/msg/outbounds', {
        body: {
          outbound_name: `typescript client ${run}`,
          waba_phone_number: line,
          category: 'MARKETING',
          language_code: 'es',
          template_type: 'TEXT',
          is_notification: true,
          content: 'Hola {{.name}}, tu pedido llega hoy.',
          var: { name: { value: 'Ana' } },
        } as never,
      }),
    ),
  );
  await step('message.send', !!outbound, async () => {
    const id = outbound!.outbound_id;
    await eventually(
      'outbound approved',
      async () =>
        data(await engagement.GET('/v1/msg/outbounds/{outbound_id}', { params: { path: { outbound_id: id } } }))
          .status === 'APPROVED',
    );
    return data(
      await engagement.POST('/v1/msg/outbounds/send', {
        body: {
          phone_country_code: '+57',
          phone_number: '3001234567',
          outbound_id: id,
          user_authorized: true,
          var: { name: 'Ana' },
        } as never,
      }),
    );
  });

  // A contact and a segment of customers.
  await step('contact.create', true, async () =>
    data(
      await customers.POST('/v1/contacts', {
        body: { phone_number: '+573001110001', external_id: `ts-${run}`, name: 'Ana TypeScript' },
      } as never),
    ),
  );
  await step('segment.create', true, async () =>
    data(
      await customers.POST('/v1/customers/segments', {
        // `rule` is a JSON-Logic object; the document publishes it as an object without properties.
        body: { name: `typescript client ${run}`, rule: { '>=': [{ var: 'checks_count' }, 1] } as never },
      }),
    ),
  );

  // An e-mail validation of an enrolled account.
  const accountId = `typescript-${run}`;
  const enrolled = await step('validation.enroll', true, async () => {
    data(await validations.POST('/v1/accounts', { body: { account_id: accountId, first_name: 'Ana' } }));
    return data(
      await validations.POST('/v1/enrollments', {
        body: {
          type: 'email-verification',
          user_authorized: true,
          account_id: accountId,
          email: `${accountId}@mail.test`,
        },
      }),
    );
  });
  const validation = await step('validation.create', !!enrolled, async () =>
    data(
      await validations.POST('/v1/validations', {
        body: { type: 'email-verification', user_authorized: true, account_id: accountId },
      }),
    ),
  );
  await step('validation.read', !!validation, async () =>
    data(
      await validations.GET('/v1/validations/{validation_id}', {
        params: { path: { validation_id: validation!.validation_id } },
      }),
    ),
  );
  process.exit(failed ? 1 : 0);
}

void main();
