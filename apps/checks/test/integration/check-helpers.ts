import { ApiClient, createTenant, TestTenant } from '@kyc/testing';

/** A new tenant (through account) and a checks-service client holding its admin's key. */
export async function tenantWithClient(
  accountUrl: string,
  checksUrl: string,
): Promise<{ t: TestTenant; api: ApiClient }> {
  const t = await createTenant(accountUrl, [checksUrl]);
  return { t, api: new ApiClient(checksUrl, t.apiKey) };
}

/** Creates a new check (user_authorized, force_creation) and returns its id; fails unless 201. */
export async function createCheck(api: ApiClient, body: Record<string, string>): Promise<string> {
  const res = await api.post('/v1/checks', { user_authorized: 'true', force_creation: 'true', ...body });
  expect([res.status, res.body]).toEqual([201, expect.anything()]);
  return res.body.check.check_id as string;
}

export const getCheck = async (api: ApiClient, id: string) => (await api.get(`/v1/checks/${id}`)).body.check;

/** A check's status entry for one database. */
export const statusOf = (check: any, databaseId: string) =>
  check.statuses.find((s: any) => s.database_id === databaseId);
