/**
 * The operator commands the image ships (`node dist/apps/<svc>/src/main.js admin …`): the first
 * tenant and its first API key without the stack command, against the harness's PostgreSQL, and the
 * key accepted by a real service once the running account service has relayed the tenant's users.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { ServiceName } from '@kyc/contracts';

import { closeDb, db, eventually, freePort, repoRoot, serviceEnv, startService } from '../../src/harness';
import { uniqueTenantId } from '../../src/tenants';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `main.js admin …` of a service from dist/ as an operator would, with the given environment. */
function admin(service: ServiceName, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined));
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'dist/apps', service, 'src/main.js'), 'admin', ...args],
      {
        env: { ...clean, SERVICE_NAME: service },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (text: string) => text.split('\n').filter(Boolean);
const tenantRows = async (tenantId: string) =>
  (await db().query('SELECT count(*)::int AS n FROM account.tenants WHERE id = $1', [tenantId])).rows[0].n as number;

describe('operator commands: admin create-tenant and admin issue-key', () => {
  type App = Awaited<ReturnType<typeof startService>>;
  let account: App;
  let checks: App;

  beforeAll(async () => {
    // The running services: account relays the tenant's users and roles, checks is where the key is used.
    [account, checks] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: `account-admin-spec-${Date.now()}` }),
      startService('checks'),
    ]);
  });

  afterAll(async () => {
    await Promise.all([account?.close(), checks?.close()]);
    await closeDb();
  });

  it('creates a tenant and its admin, issues a key printed once, and the key works on a running service', async () => {
    const tenantId = uniqueTenantId();
    const created = await admin(
      'account',
      [
        'create-tenant',
        '--tenant-id',
        tenantId,
        '--name',
        'Acme S.A.S.',
        '--admin-email',
        `Admin@${tenantId}.test`,
        '--billing-hub',
        'hub-a',
        '--billing-hub',
        'hub-b',
      ],
      serviceEnv('account'),
    );
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(lines(created.stdout)).toHaveLength(1);
    const tenant = JSON.parse(created.stdout);
    expect(tenant).toMatchObject({
      tenant_id: tenantId,
      name: 'Acme S.A.S.',
      billing_hubs: ['HUB-A', 'HUB-B'],
      created: true,
      admin_user: { username: `admin@${tenantId}.test`, role: 'full_access', status: 'enabled' },
    });

    const issued = await admin(
      'identity',
      ['issue-key', '--tenant', tenantId, '--user', tenant.admin_user.user_id, '--version', '1'],
      serviceEnv('identity'),
    );
    expect([issued.code, issued.stderr]).toEqual([0, '']);
    expect(lines(issued.stdout)).toHaveLength(1);
    const key = JSON.parse(issued.stdout);
    expect(key).toMatchObject({ key_name: 'bootstrap', key_type: 'backend', api_key_version: 1, tenant_id: tenantId });
    expect(key.api_key).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // Stored as a key record, never as the token itself.
    const stored = await db().query('SELECT * FROM identity.api_keys WHERE tenant_id = $1', [tenantId]);
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows[0])).not.toContain(key.api_key);

    await eventually(
      async () => {
        const res = await fetch(`${checks.url}/v1/checks`, { headers: { 'Service-API-Key': key.api_key } });
        expect(res.status).toBe(200);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    // Again: the tenant is kept (idempotent), with the same administrator.
    const again = await admin(
      'account',
      ['create-tenant', '--tenant-id', tenantId, '--name', 'Other', '--admin-email', `admin@${tenantId}.test`],
      serviceEnv('account'),
    );
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      created: false,
      name: 'Acme S.A.S.',
      admin_user: { user_id: tenant.admin_user.user_id },
    });
  });

  it('refuses in one line, with a non-zero exit, when the database is missing or unreachable', async () => {
    const tenantId = uniqueTenantId();
    const args = ['create-tenant', '--tenant-id', tenantId, '--name', 'T', '--admin-email', `a@${tenantId}.test`];
    const missing = await admin('account', args, { ...serviceEnv('account'), DATABASE_URL: undefined });
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr)).toEqual(['account admin: refused: DATABASE_URL is not set']);
    expect(missing.stdout).toBe('');

    const port = await freePort();
    const unreachable = await admin('account', args, {
      ...serviceEnv('account'),
      DATABASE_URL: `postgres://kyc:secret@127.0.0.1:${port}/kyc`,
    });
    expect(unreachable.code).toBe(1);
    expect(lines(unreachable.stderr)).toEqual([
      `account admin: refused: the database at 127.0.0.1:${port}/kyc cannot be reached (ECONNREFUSED): check DATABASE_URL`,
    ]);
    expect(unreachable.stderr).not.toContain('secret');
    expect(await tenantRows(tenantId)).toBe(0);
  });

  it('refuses in one line when the signing key is missing', async () => {
    const noPrivate = await admin('identity', ['issue-key', '--tenant', 'acme', '--user', 'u1'], {
      ...serviceEnv('identity'),
      API_KEY_PRIVATE_KEY: undefined,
    });
    expect(noPrivate.code).toBe(1);
    expect(lines(noPrivate.stderr)).toHaveLength(1);
    expect(noPrivate.stderr).toMatch(/^identity admin: refused: .*API_KEY_PRIVATE_KEY/);
    expect(noPrivate.stdout).toBe('');

    const noPublic = await admin('account', ['create-tenant', '--tenant-id', 'acme'], {
      ...serviceEnv('account'),
      API_KEY_PUBLIC_KEY: undefined,
    });
    expect([noPublic.code, lines(noPublic.stderr)]).toEqual([
      1,
      ['account admin: refused: API_KEY_PUBLIC_KEY is not set'],
    ]);
  });

  it('refuses bad flags with the DTO rules and the usage, storing nothing', async () => {
    const tenantId = uniqueTenantId();
    const bad = await admin(
      'account',
      ['create-tenant', '--tenant-id', tenantId, '--name', 'T', '--admin-email', 'not-an-email'],
      serviceEnv('account'),
    );
    expect(bad.code).toBe(2);
    expect(lines(bad.stderr)[0]).toBe(
      'account admin create-tenant: admin_email: admin_email must be an e-mail address',
    );
    expect(bad.stderr).toContain('create-tenant --tenant-id <id> --name <name> --admin-email <e-mail>');
    expect(await tenantRows(tenantId)).toBe(0);

    const unknown = await admin(
      'account',
      ['create-tenant', '--tenant-id', tenantId, '--colour', 'red'],
      serviceEnv('account'),
    );
    expect([unknown.code, lines(unknown.stderr)[0]]).toEqual([2, 'account admin create-tenant: unknown flag --colour']);

    const noCommand = await admin('identity', ['rotate-everything'], serviceEnv('identity'));
    expect([noCommand.code, lines(noCommand.stderr)[0]]).toEqual([
      2,
      'identity admin: unknown command "rotate-everything"',
    ]);
    expect(noCommand.stderr).toContain('issue-key --tenant <tenant_id> --user <user_id>');
  });
});
