import { DataSource } from 'typeorm';

import { CredentialsService } from '../credentials/credentials.service';
import { SendTargetStore } from './send-target.store';

jest.mock('@kyc/platform', () => ({
  ...jest.requireActual<object>('@kyc/platform'),
  preparedQuery: jest.fn(),
}));
/** The platform's prepared statement the store runs (faked: the statement itself is tested against PostgreSQL). */
const query = jest.requireMock<{
  preparedQuery: jest.MockedFunction<
    (ds: unknown, name: string, sql: string, values: unknown[], m?: unknown) => Promise<Record<string, unknown>[]>
  >;
}>('@kyc/platform').preparedQuery;

const columns = [
  ['id', 'id'],
  ['tenant_id', 'tenantId'],
  ['status', 'status'],
].map(([databaseName, propertyName]) => ({ databaseName, propertyName }));
const dataSource = { getRepository: () => ({ metadata: { target: Object, columns } }) } as unknown as DataSource;
const credentials = {
  opened: jest.fn((row: { tenantId: string; wabaId: string }) => ({ accessToken: 't', wabaId: row.wabaId })),
} as unknown as CredentialsService;

/** A row of the statement: the outbound and, unless `wabaId` is null, its tenant's credentials. */
const row = (id: string, tenantId: string, status = 'APPROVED', wabaId: string | null = 'W1') => ({
  id,
  tenant_id: tenantId,
  status,
  credentials_tenant_id: wabaId ? tenantId : null,
  credentials_waba_id: wabaId,
  credentials_sealed: wabaId ? 'sealed' : null,
});

describe('SendTargetStore', () => {
  beforeEach(() => query.mockReset());

  it('reads the concurrent sends with one statement, each outbound once, and answers each its own', async () => {
    query.mockImplementation(async (_ds, _name, _sql, params) => {
      const [ids, tenants] = params as [string[], string[]];
      return ids.map((id, i) => row(id, tenants[i]));
    });
    const targets = new SendTargetStore(dataSource, credentials);
    const found = await Promise.all([
      targets.find('TEN1', 'OTB1'),
      targets.find('TEN1', 'OTB1'),
      targets.find('TEN2', 'OTB2'),
    ]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(query.mock.calls[0][3]).toEqual([
      ['OTB1', 'OTB2'],
      ['TEN1', 'TEN2'],
    ]);
    expect(found.map((t) => [t.outbound.tenantId, t.outbound.id, t.credentials?.wabaId])).toEqual([
      ['TEN1', 'OTB1', 'W1'],
      ['TEN1', 'OTB1', 'W1'],
      ['TEN2', 'OTB2', 'W1'],
    ]);
  });

  it("keeps tenants apart: another tenant's outbound is not found (404), and only that send fails", async () => {
    query.mockResolvedValue([row('OTB1', 'TEN1')] as never);
    const targets = new SendTargetStore(dataSource, credentials);
    const [own, other] = await Promise.allSettled([targets.find('TEN1', 'OTB1'), targets.find('TEN2', 'OTB1')]);
    expect(own.status).toBe('fulfilled');
    expect(other).toMatchObject({ status: 'rejected', reason: { errorCode: 'outbound_not_found' } });
  });

  it('refuses an outbound that is not APPROVED (409), and answers no credentials when none are configured', async () => {
    query.mockResolvedValue([row('OTB1', 'TEN1', 'PAUSED'), row('OTB2', 'TEN1', 'APPROVED', null)] as never);
    const targets = new SendTargetStore(dataSource, credentials);
    const [paused, bare] = await Promise.allSettled([targets.find('TEN1', 'OTB1'), targets.find('TEN1', 'OTB2')]);
    expect(paused).toMatchObject({ status: 'rejected', reason: { errorCode: 'outbound_not_sendable' } });
    expect(bare).toMatchObject({ status: 'fulfilled', value: { credentials: null } });
  });

  it('reads again for a send that arrives after a read started (never an answer older than the request)', async () => {
    let status = 'APPROVED';
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    query.mockImplementationOnce(async () => {
      const answer = [row('OTB1', 'TEN1', status)];
      await held;
      return answer;
    });
    query.mockImplementation(async () => [row('OTB1', 'TEN1', status)] as never);
    const targets = new SendTargetStore(dataSource, credentials);
    const first = targets.find('TEN1', 'OTB1');
    await new Promise((resolve) => setImmediate(resolve)); // the first read is under way
    status = 'PAUSED';
    const second = targets.find('TEN1', 'OTB1');
    release();
    await expect(first).resolves.toMatchObject({ outbound: { status: 'APPROVED' } });
    await expect(second).rejects.toMatchObject({ errorCode: 'outbound_not_sendable' });
    expect(query).toHaveBeenCalledTimes(2);
  });
});
