// The stack's demo data: the demo tenant and its key (through the operator commands), the demo
// identity flow, pass's demo application and the demo messaging line.
import { runAdmin } from './services.mjs';
import { dist, StackError, waitFor } from './util.mjs';

/** The demo WABA of the sandbox messaging provider, with its line, and the sandbox app's secrets (kept per stack dir). */
export const SANDBOX_MESSAGING_DEMO = {
  wabaId: 'sandbox-demo-waba',
  phoneNumberId: 'sandboxdemoline1',
  phone: '+573000000001',
};

export const DEMO = {
  tenantId: 'demo',
  tenantName: 'Demo tenant',
  adminEmail: 'admin@demo.local',
  billingHubs: ['HUB-DEMO'],
};

/** Points the demo tenant's messaging adapter at the sandbox provider: credentials, WABA subscription, lines. */
export async function connectDemoMessaging({ engagementUrl, apiKey, secrets }) {
  await waitFor(async () => (await call(`${engagementUrl}/v1/auth/whoami`, { token: apiKey })).status === 200, {
    timeoutMs: 15_000,
    intervalMs: 100,
    what: 'demo API key accepted by the engagement service',
  });
  const saved = await call(`${engagementUrl}/v1/msg/provider-credentials`, {
    method: 'PUT',
    token: apiKey,
    body: {
      access_token: secrets.access_token,
      waba_id: SANDBOX_MESSAGING_DEMO.wabaId,
      app_secret: secrets.app_secret,
      verify_token: secrets.verify_token,
    },
  });
  if (saved.status !== 200)
    throw new StackError(`saving the demo messaging credentials failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  const sub = await call(`${engagementUrl}/v1/msg/waba-subscription`, { method: 'POST', token: apiKey });
  if (sub.status !== 200)
    throw new StackError(`subscribing the demo WABA failed: ${sub.status} ${JSON.stringify(sub.body)}`);
}

async function call(url, { method = 'GET', token, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { 'Service-API-Key': token } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

/**
 * Creates (or finds) the demo tenant and its full_access admin, and a version-1 backend key for it,
 * with the operator commands the image ships (`account … admin create-tenant`, `identity … admin
 * issue-key`): one code path for the stack, docker compose's `seed` and the Kubernetes bootstrap Job.
 * `envOf(name)` is the service's environment (database, keys).
 */
export async function seedDemoTenant({ services, envOf, previousKey, tenant = DEMO }) {
  const created = await runAdmin(
    'account',
    'create-tenant',
    [
      '--tenant-id',
      tenant.tenantId,
      '--name',
      tenant.tenantName,
      '--admin-email',
      tenant.adminEmail,
      ...tenant.billingHubs.flatMap((h) => ['--billing-hub', h]),
    ],
    await envOf('account'),
  );
  const admin = created.admin_user;
  let apiKey = previousKey;
  const works = async (key) => key && (await call(`${services.checks}/v1/checks`, { token: key })).status === 200;
  if (!(await works(apiKey))) {
    const issued = await runAdmin(
      'identity',
      'issue-key',
      ['--tenant', tenant.tenantId, '--user', admin.user_id, '--name', 'demo', '--version', '1'],
      await envOf('identity'),
    );
    apiKey = issued.api_key;
    // The user and role reach every service's access cache through Kafka; wait until they have.
    await waitFor(() => works(apiKey), {
      timeoutMs: 15_000,
      intervalMs: 100,
      what: 'demo API key accepted by the services',
    });
  }
  return { apiKey, tenantId: tenant.tenantId, adminUser: admin };
}

export const DEMO_PASS = {
  userEmail: 'demo.user@pass.local',
  userPhone: '+573000000001',
  redirectUri: 'http://localhost:5173/callback',
  webMessageOrigin: 'http://localhost:5173',
};

/**
 * Pass's demo: a person with a verified identity and phone (seeded through pass's operator endpoint
 * until the identity and validations services publish their events) and a demo application (CIBA on,
 * web_message for a local origin, every non-restricted scope). The application of the previous run is
 * kept when it still exists (its secret is shown only once, at registration).
 */
export async function seedPassClient({ passUrl, privateKey, previous }) {
  const { ApiKeySigner } = dist('libs/platform/src/auth/api-key.tokens.js');
  const { BASE_SCOPES } = dist('apps/pass/src/scopes/scopes.js');
  const operator = await new ApiKeySigner(privateKey).platformAdminToken('stack');
  const seeded = await call(`${passUrl}/v1/admin/users`, {
    method: 'PUT',
    token: operator,
    body: {
      email: DEMO_PASS.userEmail,
      phone_number: DEMO_PASS.userPhone,
      phone_verified: true,
      identity: {
        verified: true,
        verification_level: 'high',
        first_name: 'Demo',
        last_name: 'User',
        birthdate: '1990-04-01',
        nationality: 'CO',
        document_number: '1020304050',
        document_type: 'national-id',
        issuing_authority: 'Registraduría Nacional',
      },
      documents: [{ country: 'co', document_type: 'national-id', document_number: '1020304050' }],
      address: { street_address: 'Calle 1 # 2-3', locality: 'Bogotá', country: 'CO' },
    },
  });
  if (seeded.status >= 300)
    throw new StackError(`seeding the pass demo user failed: ${seeded.status} ${JSON.stringify(seeded.body)}`);
  if (previous?.client_id && previous.client_secret) {
    const found = await call(`${passUrl}/v1/admin/applications/${previous.client_id}`, { token: operator });
    if (found.status === 200) return previous;
  }
  const created = await call(`${passUrl}/v1/admin/applications`, {
    method: 'POST',
    token: operator,
    body: {
      tenant_id: DEMO.tenantId,
      name: 'Demo application',
      redirect_uris: [DEMO_PASS.redirectUri, DEMO_PASS.webMessageOrigin],
      scopes: BASE_SCOPES,
      allows_web_message: true,
      allowed_web_message_origins: [DEMO_PASS.webMessageOrigin],
      ciba_enabled: true,
    },
  });
  if (created.status >= 300)
    throw new StackError(
      `registering the pass demo application failed: ${created.status} ${JSON.stringify(created.body)}`,
    );
  return {
    client_id: created.body.application.client_id,
    client_secret: created.body.application.client_secret,
    redirect_uri: DEMO_PASS.redirectUri,
    login_hint: DEMO_PASS.userEmail,
  };
}

/** The demo identity flow a person can complete in the web page: form, e-mail code, document, selfie. */
export const DEMO_FLOW = {
  name: 'Demo onboarding',
  redirect_url: 'https://example.com/verified',
  timeout_seconds: 3600,
  steps: [
    {
      type: 'form',
      fields: [
        { name: 'first_name', label: 'First name' },
        { name: 'last_name', label: 'Last name' },
      ],
    },
    { type: 'email' },
    { type: 'document' },
    { type: 'face' },
  ],
};

/** Creates the demo flow unless the previous run's flow still exists; returns its id. */
export async function seedDemoFlow({ services, apiKey, previousFlowId }) {
  if (previousFlowId) {
    const found = await call(`${services.identity}/v1/flows/${encodeURIComponent(previousFlowId)}`, { token: apiKey });
    if (found.status === 200) return previousFlowId;
  }
  const created = await call(`${services.identity}/v1/flows`, { method: 'POST', token: apiKey, body: DEMO_FLOW });
  if (created.status >= 300)
    throw new StackError(`creating the demo flow failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.flow_id;
}
