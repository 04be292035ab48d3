import { randomUUID } from 'node:crypto';

import { ApiClient, eventually, mintKey, SandboxMessaging, TestTenant } from '@kyc/testing';

import { ConnectedTenant } from './engagement-helpers';

export interface TestAgent {
  email: string;
  userId: string;
  /** The agent's own key at the engagement service. */
  api: ApiClient;
}

/** Creates a user of the account (an agent) and waits until the engagement service knows it. */
export async function addAgent(
  accountUrl: string,
  engagementUrl: string,
  tenant: TestTenant,
  name = `agent-${randomUUID().slice(0, 8)}`,
): Promise<TestAgent> {
  const admin = new ApiClient(accountUrl, tenant.apiKey);
  const email = `${name}@${tenant.tenantId}.test`.toLowerCase();
  const created = await admin.postJson<{ user: { user_id: string } }>('/v1/account/users', { email });
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`user: ${created.status} ${JSON.stringify(created.body)}`);
  const engagement = new ApiClient(engagementUrl, tenant.apiKey);
  // Known to engagement once the user reached its access cache: an offline status is accepted.
  await eventually(async () => {
    const res = await engagement.postJson('/v1/engagement/agent/status', { username: email, status: 'offline' });
    if (res.status !== 200) throw new Error(`agent not known yet: ${res.status}`);
  });
  const key = mintKey({ tenant_id: tenant.tenantId, sub: created.body.user.user_id, ver: 1 });
  return { email, userId: created.body.user.user_id, api: new ApiClient(engagementUrl, key) };
}

/** A user writes to the tenant's line through the sandbox provider (its webhook reaches engagement). */
export async function userWrites(
  sandbox: SandboxMessaging,
  t: ConnectedTenant,
  from: string,
  text: string,
  name?: string,
) {
  const res = await fetch(`${sandbox.url}/_sandbox/reply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone_number_id: t.phoneNumberId, from, text, ...(name ? { name } : {}) }),
  });
  if (res.status !== 200) throw new Error(`sandbox reply: ${res.status} ${await res.text()}`);
}

/** Waits for the open chat of a user's phone (E.164) and answers it. */
export function chatOf(api: ApiClient, phone: string, check: (chat: any) => boolean = () => true): Promise<any> {
  return eventually(
    async () => {
      const res = await api.get(`/v1/engagement/chat/search?search=${encodeURIComponent(phone)}&status=open`);
      const chat = res.body.chats?.find((c: any) => c.contact.phone === phone);
      if (!chat || !check(chat)) throw new Error(`no matching chat for ${phone} yet: ${JSON.stringify(res.body)}`);
      return chat;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
}

export const putJson = (api: ApiClient, path: string, body: unknown) =>
  api.request<any>('PUT', path, body, { 'content-type': 'application/json' });
