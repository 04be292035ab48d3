// `npm run docs:examples`: runs a few real requests against a running stack (`npm start`; reads
// .stack/stack.json, or the file named by STACK_FILE) and writes each request and its answer into
// docs/services/<service>.md between `<!-- examples:<service> -->` and `<!-- /examples:<service> -->`.
// Long lists in answers are cut to their first items (shown as "…") so the pages stay readable.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './reference.mjs';

const stack = JSON.parse(readFileSync(process.env.STACK_FILE ?? path.join(root, '.stack/stack.json'), 'utf8'));
const key = stack.api_key;
const run = Date.now().toString(36);

/** Cuts arrays to `keep` items and long strings (keys, base64) to 60 characters. */
function abbreviate(value, keep = 2) {
  if (Array.isArray(value))
    return value.length > keep
      ? [...value.slice(0, keep).map((v) => abbreviate(v)), '…']
      : value.map((v) => abbreviate(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v)]));
  if (typeof value === 'string' && value.length > 80) return `${value.slice(0, 60)}…`;
  return value;
}

async function call(service, method, route, { form, json, show } = {}) {
  const url = `${stack.services[service]}${route}`;
  const headers = { 'Service-API-Key': key };
  let body;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  } else if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  const answer = text ? JSON.parse(text) : null;
  const curlBody = form
    ? Object.entries(form)
        .map(([k, v]) => ` -d ${k}=${v}`)
        .join('')
    : json
      ? ` -H 'content-type: application/json' -d '${JSON.stringify(json)}'`
      : '';
  const shown = `$${service.toUpperCase()}${route}`;
  const curl = `curl -s${method === 'GET' ? '' : ` -X ${method}`} "${shown}" -H "Service-API-Key: $KEY"${curlBody}`;
  return { status: res.status, answer, curl, show: show ?? true, title: `${method} ${templated(route)}` };
}

/** The route with ids replaced by their parameter names, for headings. */
const templated = (route) =>
  route
    .replace(/\?.*/, '')
    .replace(/\/CHK\w+/, '/{check_id}')
    .replace(/\/KEY\w+/, '/{key_id}')
    .replace(/\/RUL\w+/, '/{rule_id}')
    .replace(/\/ACT\w+/, '/{action_id}')
    .replace(/\/CCK\w+/, '/{continuous_check_id}')
    .replace(/\/BCH\w+/, '/{batch_id}')
    .replace(/\/users\/[^/?]+%40[^/?]+/, '/users/{username}');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function checksExamples() {
  const out = [];
  const created = await call('checks', 'POST', '/v1/checks', {
    form: { country: 'CO', type: 'person', user_authorized: 'true', national_id: '1000000002', first_name: 'Carlos' },
  });
  out.push(created);
  const id = created.answer.check.check_id;
  for (let i = 0; i < 40; i++) {
    const r = await call('checks', 'GET', `/v1/checks/${id}`);
    if (r.answer.check.status === 'completed' || r.answer.check.status === 'error') break;
    await sleep(500);
  }
  out.push(await call('checks', 'GET', `/v1/checks/${id}`));
  out.push(await call('checks', 'GET', `/v1/checks/${id}/details?lang=en`));
  out.push(await call('checks', 'GET', `/v1/checks/${id}/summarize`));
  out.push(await call('checks', 'GET', `/v1/checks/${id}/attachments`));
  out.push(await call('checks', 'GET', '/v1/checks'));
  out.push(
    await call('checks', 'POST', '/v1/checks', { form: { country: 'XX', type: 'person', user_authorized: 'false' } }),
  );
  out.push(await call('checks', 'GET', '/v1/checks/health?country=CO'));
  out.push(
    await call('checks', 'POST', '/v1/config', {
      form: { country: 'CO', type: `example-${run}`, dataset_criminal_record: '0.6', dataset_personal_identity: '0.4' },
    }),
  );
  out.push(await call('checks', 'GET', '/v1/config'));
  out.push(await call('checks', 'POST', '/v1/settings', { form: { retries: 'true' } }));
  out.push(await call('checks', 'GET', '/v1/settings'));
  out.push(
    await call('checks', 'POST', '/v1/config/credentials/sandbox-co-bureau', {
      json: { username: 'acme', password: 'secret', complements: {} },
    }),
  );
  out.push(await call('checks', 'GET', '/v1/config/credentials'));
  out.push(await call('checks', 'DELETE', '/v1/config/credentials/sandbox-co-bureau'));
  const endDate = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  const cc = await call('checks', 'POST', '/v1/continuous-checks', {
    form: { check_id: id, frequency: 'monthly', end_date: endDate },
  });
  out.push(cc);
  const ccId = cc.answer.continuous_check_id;
  out.push(
    await call('checks', 'PUT', `/v1/continuous-checks/${ccId}`, {
      form: { frequency: 'monthly', status: 'disabled' },
    }),
  );
  out.push(await call('checks', 'GET', `/v1/continuous-checks/${ccId}/history`));
  out.push(await call('checks', 'POST', `/v1/checks/${id}/pdf`));
  const batch = await call('checks', 'POST', '/v1/batches', {
    form: { country: 'CO', service: 'checks', type: 'person' },
  });
  out.push(batch);
  out.push(await call('checks', 'GET', `/v1/batches/${batch.answer.batch.batch_id}`));
  out.push(await call('checks', 'PUT', `/v1/batches/${batch.answer.batch.batch_id}`));
  out.push(await call('checks', 'DELETE', `/v1/checks/${id}`));
  return out;
}

async function accountExamples() {
  const out = [];
  const email = `ana.${run}@example.com`;
  out.push(
    await call('account', 'POST', '/v1/account/users', {
      form: { email, country: 'CO', language: 'es', billing_hub: 'HUB-DEMO' },
    }),
  );
  out.push(await call('account', 'GET', '/v1/account/users?limit=2'));
  const user = `/v1/account/users/${encodeURIComponent(email)}`;
  out.push(await call('account', 'PUT', user, { form: { display_name: 'Ana Gómez' } }));
  out.push(
    await call('account', 'PATCH', `${user}/status`, { form: { status: 'disabled', reason: 'left the company' } }),
  );
  out.push(await call('account', 'GET', '/v1/account/audit-log?limit=2'));
  out.push(await call('account', 'GET', '/v1/account/settings/billing-hubs'));
  out.push(
    await call('account', 'POST', '/v1/roles', {
      json: {
        name: `analyst-${run}`,
        description: 'Reads Colombian checks',
        permissions: ['checks.country_co'],
        access_rules: [{ in: [{ var: 'country' }, ['CO']] }],
      },
    }),
  );
  out.push(await call('account', 'GET', '/v1/roles?limit=2'));
  out.push(await call('account', 'GET', '/v1/permissions?list=user'));
  const rule = await call('account', 'POST', '/v1/bre/rules', {
    json: {
      name: `Low score ${run}`,
      event_type: 'checks.check.finished',
      condition: { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '<': [{ var: 'score' }, 0.5] }] },
    },
  });
  out.push(rule);
  out.push(
    await call('account', 'POST', `/v1/bre/rules/${rule.answer.rule.rule_id}/actions`, {
      json: {
        name: 'Notify the CRM',
        type: 'http_request',
        config: { url: 'https://crm.example.com/hooks/kyc', headers: { Authorization: 'Bearer {{.env.API_TOKEN}}' } },
      },
    }),
  );
  const ruleId = rule.answer.rule.rule_id;
  const action = out[out.length - 1].answer.action;
  out.push(
    await call('account', 'POST', `/v1/bre/rules/${ruleId}/actions/${action.action_id}/envs`, {
      form: { name: 'API_TOKEN', value: 'tok_123', is_secret: 'true' },
    }),
  );
  out.push(await call('account', 'PUT', `/v1/bre/rules/${ruleId}`, { form: { name: `Low score in CO ${run}` } }));
  out.push(await call('account', 'GET', `/v1/bre/rules/${ruleId}`));
  out.push(await call('account', 'GET', `/v1/bre/rules/${ruleId}/versions`));
  out.push(await call('account', 'GET', '/v1/bre/executions?limit=2'));
  out.push(await call('account', 'GET', '/v1/bre/signing-secret'));
  out.push(await call('account', 'GET', '/v1/auth/whoami'));
  return out;
}

async function identityExamples() {
  const out = [];
  const issued = await call('identity', 'POST', '/v1/api-keys', {
    form: { key_name: `example-${run}`, key_type: 'backend', api_key_version: '1' },
  });
  out.push(issued);
  out.push(await call('identity', 'DELETE', `/v1/api-keys/${issued.answer.key_id}`));
  out.push(await call('identity', 'GET', '/v1/auth/whoami'));
  return out;
}

function render(service, examples) {
  const lines = [
    `<!-- examples:${service} -->`,
    '',
    '## Examples',
    '',
    `Recorded from a real run (\`npm run docs:examples\` against \`npm start\`; \`$KEY\` is the demo API key and`,
    `\`$${service.toUpperCase()}\` the service URL, both in \`.stack/stack.json\`). Long lists are cut to their first items (\`…\`).`,
    '',
  ];
  for (const e of examples) {
    lines.push(
      `### ${e.title} → ${e.status}`,
      '',
      '```bash',
      e.curl,
      '```',
      '',
      '```json',
      JSON.stringify(abbreviate(e.answer), null, 2),
      '```',
      '',
    );
  }
  lines.push(`<!-- /examples:${service} -->`);
  return lines.join('\n');
}

const pages = { checks: checksExamples, account: accountExamples, identity: identityExamples };
for (const [service, record] of Object.entries(pages)) {
  const file = path.join(root, 'docs/services', `${service}.md`);
  const text = readFileSync(file, 'utf8');
  const start = `<!-- examples:${service} -->`;
  const end = `<!-- /examples:${service} -->`;
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`${file} has no ${start} marker`);
  const to = text.indexOf(end) >= 0 ? text.indexOf(end) + end.length : from + start.length;
  writeFileSync(file, text.slice(0, from) + render(service, await record()) + text.slice(to));
  console.log(`docs: examples of ${service} written to docs/services/${service}.md`);
}
