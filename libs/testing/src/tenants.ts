import { randomUUID } from 'node:crypto';

import { ApiKeyClaims } from '@kyc/contracts';

import { ApiClient } from './api-client';
import { eventually, signer } from './harness';

export interface TestTenant {
  tenantId: string;
  adminUserId: string;
  /** Version-1 backend key of the admin (full_access). */
  apiKey: string;
  /** Version-0 key of the same user. */
  apiKeyV0: string;
}

export const uniqueTenantId = (prefix = 't') => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Mints an API key with the platform private key (what the identity service does when it issues one). */
export function mintKey(claims: Partial<ApiKeyClaims> & Pick<ApiKeyClaims, 'tenant_id' | 'sub'>): string {
  return signer().sign({
    jti: `KEY${randomUUID().replace(/-/g, '')}`,
    key_type: 'backend',
    ver: 1,
    iat: Math.floor(Date.now() / 1000),
    ...claims,
  });
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
  const operator = new ApiClient(accountUrl, signer().platformAdminToken('test'));
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
