import { createPrivateKey, randomUUID, sign } from 'node:crypto';

import { ApiKeyClaims } from '@kyc/contracts';
import { newId } from '@kyc/platform';

import { ApiClient } from './api-client';
import { eventually, harness, signer } from './harness';

export interface TestTenant {
  tenantId: string;
  adminUserId: string;
  /** Version-1 backend key of the admin (full_access). */
  apiKey: string;
  /** Version-0 key of the same user. */
  apiKeyV0: string;
}

export const uniqueTenantId = (prefix = 't') => `${prefix}-${randomUUID().slice(0, 8)}`;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Mints an API key with the platform private key, in the format identity issued before keys
 * carried an audience (an EdDSA compact JWT without `aud`), signed here with node:crypto rather
 * than the platform's signer: the suites' keys are such keys, which every service must keep
 * accepting. Keys issued through identity's API carry the audience.
 */
export function mintKey(claims: Partial<ApiKeyClaims> & Pick<ApiKeyClaims, 'tenant_id' | 'sub'>): string {
  const header = base64url({ alg: 'EdDSA', typ: 'JWT' });
  const payload = base64url({
    jti: newId('KEY'),
    key_type: 'backend',
    ver: 1,
    iat: Math.floor(Date.now() / 1000),
    ...claims,
  });
  const signature = sign(null, Buffer.from(`${header}.${payload}`), createPrivateKey(harness().privateKey));
  return `${header}.${payload}.${signature.toString('base64url')}`;
}

/**
 * Creates a tenant through the account service's admin endpoint (built-in roles + a full_access
 * admin) and waits until `readyAt` (a service URL) accepts the admin's key, i.e. the user and role
 * reached that service's access cache through Kafka.
 */
export async function createTenant(
  accountUrl: string,
  readyAt: string[] = [accountUrl],
  tenantId = uniqueTenantId(),
): Promise<TestTenant> {
  const operator = new ApiClient(accountUrl, await signer().platformAdminToken('test'));
  const res = await operator.postJson('/v1/admin/tenants', {
    tenant_id: tenantId,
    name: `Tenant ${tenantId}`,
    admin_email: `admin@${tenantId}.test`,
  });
  if (res.status !== 200) throw new Error(`tenant creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  const adminUserId = res.body.admin_user.user_id;
  const apiKey = mintKey({ tenant_id: tenantId, sub: adminUserId, ver: 1 });
  const apiKeyV0 = mintKey({ tenant_id: tenantId, sub: adminUserId, ver: 0 });
  for (const url of readyAt) {
    await eventually(async () => {
      const r = await fetch(`${url}/v1/auth/whoami`, { headers: { 'Service-API-Key': apiKey } });
      if (r.status !== 200) throw new Error(`key not accepted yet at ${url}: ${r.status}`);
    });
  }
  return { tenantId, adminUserId, apiKey, apiKeyV0 };
}

export interface TestRoleUser {
  userId: string;
  /** Version-1 backend key of the user. */
  apiKey: string;
}

/**
 * Creates a role (POST /v1/roles) and a user holding it (POST /v1/account/users) through the
 * account service's API as the tenant's admin, as a client would, mints the user's key and waits
 * until every `readyAt` service accepts it (the role and user reached its access cache).
 * Change the role afterwards with `updateRole`.
 */
export async function createRoleUser(
  accountUrl: string,
  tenant: TestTenant,
  role: { name: string; permissions: readonly string[]; access_rules?: unknown[] },
  readyAt: string[] = [accountUrl],
): Promise<TestRoleUser> {
  const admin = new ApiClient(accountUrl, tenant.apiKey);
  const created = await admin.postJson('/v1/roles', role);
  if (created.status !== 200 && created.status !== 201)
    throw new Error(`role creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const email = `${role.name}-${randomUUID().slice(0, 8)}@${tenant.tenantId}.test`;
  const user = await admin.postJson<{ user: { user_id: string } }>('/v1/account/users', { email, role: role.name });
  if (user.status !== 200 && user.status !== 201)
    throw new Error(`user creation failed: ${user.status} ${JSON.stringify(user.body)}`);
  const userId = user.body.user.user_id;
  const apiKey = mintKey({ tenant_id: tenant.tenantId, sub: userId, ver: 1 });
  for (const url of readyAt) {
    await eventually(async () => {
      const r = await fetch(`${url}/v1/auth/whoami`, { headers: { 'Service-API-Key': apiKey } });
      if (r.status !== 200) throw new Error(`key not accepted yet at ${url}: ${r.status}`);
    });
  }
  return { userId, apiKey };
}

/** Replaces fields of a role through the account API (PUT /v1/roles/{name}) as the tenant's admin. */
export async function updateRole(
  accountUrl: string,
  tenant: TestTenant,
  name: string,
  fields: { permissions?: readonly string[]; access_rules?: unknown[] },
): Promise<void> {
  const res = await new ApiClient(accountUrl, tenant.apiKey).request('PUT', `/v1/roles/${name}`, fields, {
    'content-type': 'application/json',
  });
  if (res.status !== 200) throw new Error(`role update failed: ${res.status} ${JSON.stringify(res.body)}`);
}
