import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { SERVICE_NAMES } from '@kyc/contracts';

import { ApiClient } from '../../src/api-client';
import { eventually, freePorts, harness, repoRoot, shareStackKeys } from '../../src/harness';

/** The pid of the process listening on a TCP port (Linux /proc), to kill a service as a crash would. */
function pidListeningOn(port: number): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {
        /* gone */
      }
    }
  }
  return undefined;
}

/** One distinct free port per service, as the stack command's <NAME>_PORT variables. */
async function servicePorts(): Promise<Record<string, string>> {
  const names = [...SERVICE_NAMES, 'console'];
  const free = await freePorts(names.length);
  return Object.fromEntries(names.map((name, i) => [`${name.toUpperCase()}_PORT`, String(free[i])]));
}

/**
 * The stack command as a user runs it (`npm start` = node tools/stack/cli.mjs start), here with
 * the harness's PostgreSQL and Kafka given through DATABASE_URL / KAFKA_BROKERS (so it starts
 * neither) and free ports for the services.
 */
describe('the stack command', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kyc-stack-'));
  const started: ChildProcess[] = [];
  let cli: ChildProcess | undefined;
  let output = '';

  // Every command a test started and left running (a failed assertion) is stopped the way a user
  // stops it, so it stops its services too: they use the harness's PostgreSQL and Kafka, and left
  // running they would take the other suites' events. SIGKILL only if it does not exit.
  afterAll(async () => {
    for (const child of started.filter((c) => c.exitCode === null && c.signalCode === null)) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>) {
    output = '';
    shareStackKeys(dir);
    const child = spawn(process.execPath, [path.join(repoRoot, 'tools/stack/cli.mjs'), 'start'], {
      env: {
        ...process.env,
        STACK_DIR: dir,
        DATABASE_URL: harness().databaseUrl,
        KAFKA_BROKERS: harness().kafkaBrokers.join(','),
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    return child;
  }

  const isListening = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });

  it('starts the seven services, seeds the demo tenant, writes stack.json, and stops them all on SIGTERM', async () => {
    const ports = await servicePorts();
    cli = await start(ports);
    const stackFile = path.join(dir, 'stack.json');
    await eventually(() => expect(output).toContain('Platform ready in'), {
      timeoutMs: 90_000,
      intervalMs: 250,
      bail: () => cli!.exitCode !== null,
    });
    expect(existsSync(stackFile)).toBe(true);
    // It holds a full-access key: its owner's only.
    expect(statSync(stackFile).mode & 0o777).toBe(0o600);
    // The stack lets outbound calls reach local receivers, and says so.
    expect(output).toContain('SSRF policy: outbound HTTP (rules actions, webhooks) may also reach loopback');
    const info = JSON.parse(readFileSync(stackFile, 'utf8'));
    expect(Object.keys(info.services).sort()).toEqual([...SERVICE_NAMES, 'console'].sort());
    // The console, and how the demo administrator signs in to it.
    await eventually(() => expect(output).toContain(`console ${info.services.console}\n`), { timeoutMs: 10_000 });
    expect(output).toContain(`Sign in as the demo administrator ${info.admin_user}`);
    expect((await fetch(`${info.services.console}/`)).headers.get('content-type')).toContain('text/html');
    expect(info).toMatchObject({
      postgres_url: harness().databaseUrl,
      kafka_brokers: harness().kafkaBrokers,
      tenant_id: 'demo',
    });
    // The lines after "Platform ready" (URLs, then the key) may come in a later chunk.
    await eventually(() => expect(output).toContain(info.api_key), { timeoutMs: 10_000, intervalMs: 100 });
    for (const url of Object.values<string>(info.services)) expect((await fetch(`${url}/health`)).status).toBe(200);
    const whoami = await new ApiClient(info.services.checks, info.api_key).get('/v1/auth/whoami');
    expect(whoami.body).toMatchObject({ tenant_id: 'demo', role: 'full_access', api_key_version: 1 });
    // Pass's demo application and user: the client authenticates at the token endpoint (a made-up code is
    // refused as validation_error, not bad_credentials) and the login_hint resolves to a user (bc-authorize).
    expect(info.pass_client).toEqual({
      client_id: expect.stringMatching(/^pc_/),
      client_secret: expect.stringMatching(/^ps_/),
      redirect_uri: 'http://localhost:5173/callback',
      login_hint: 'demo.user@pass.local',
    });
    const token = await new ApiClient(info.services.pass).postJson('/v1/oauth2/token', {
      grant_type: 'authorization_code',
      code: 'made-up',
      client_id: info.pass_client.client_id,
      client_secret: info.pass_client.client_secret,
      redirect_uri: info.pass_client.redirect_uri,
    });
    expect(token.body).toMatchObject({ code: 400, error_code: 'validation_error' });
    const ciba = await new ApiClient(info.services.pass).post('/v1/oauth2/bc-authorize', {
      client_id: info.pass_client.client_id,
      client_secret: info.pass_client.client_secret,
      login_hint: info.pass_client.login_hint,
      scope: 'openid email',
    });
    expect(ciba.status).toBe(200);
    expect(ciba.body).toMatchObject({ auth_req_id: expect.any(String), interval: 5 });
    // The sandbox messaging provider runs, and the demo tenant's messaging adapter points at it.
    expect(info.sandbox_messaging).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${info.sandbox_messaging}/health`)).status).toBe(200);
    const lines = await new ApiClient(info.services.engagement, info.api_key).get('/v1/msg/lines');
    expect(lines.body).toEqual([expect.objectContaining({ waba_line: '+573000000001', waba_id: 'sandbox-demo-waba' })]);

    // A service that dies is restarted with backoff and the stack says so (it does not stop).
    const identityPid = pidListeningOn(Number(ports.IDENTITY_PORT));
    expect(identityPid).toBeDefined();
    process.kill(identityPid!, 'SIGKILL');
    await eventually(() => expect(output).toMatch(/identity exited unexpectedly \(SIGKILL\).*Restarting in 1 s/), {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    await eventually(() => expect(output).toContain('identity restarted at'), { timeoutMs: 90_000, intervalMs: 250 });
    expect((await fetch(`${info.services.identity}/health`)).status).toBe(200);
    expect(pidListeningOn(Number(ports.IDENTITY_PORT))).not.toBe(identityPid);
    expect(cli.exitCode).toBeNull();
    // The demo identity flow (form, e-mail code, document, selfie) is seeded and named in stack.json.
    const flow = await new ApiClient(info.services.identity, info.api_key).get(`/v1/flows/${info.identity_flow_id}`);
    expect(flow.status).toBe(200);
    expect(flow.body.steps.map((s: { type: string }) => s.type)).toEqual(['form', 'email', 'document', 'face']);

    cli.kill('SIGTERM');
    const [code] = await once(cli, 'exit');
    expect(code).toBe(0);
    for (const port of Object.values(ports)) expect(await isListening(Number(port))).toBe(false);
  }, 240_000);

  it('as root, from a directory the postgres user cannot enter, stops with one line saying so and how to fix it', async () => {
    if (process.getuid?.() !== 0) return;
    const locked = mkdtempSync(path.join(os.tmpdir(), 'kyc-locked-')); // mode 0700
    try {
      cli = await start({ STACK_DIR: path.join(locked, 'stack'), DATABASE_URL: '' });
      const [code] = await once(cli, 'exit');
      expect(code).toBe(1);
      expect(output).toContain(
        `[stack] FAILED: running as root, PostgreSQL runs as the "postgres" user, which cannot enter ${locked}`,
      );
      expect(output).toContain(`chmod o+x ${locked}`);
      expect(output).not.toContain('EACCES');
    } finally {
      rmSync(locked, { recursive: true, force: true });
    }
  });

  it('says clearly that a port is taken, exits non-zero and leaves nothing running', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const ports = await servicePorts();
      cli = await start({ ...ports, CHECKS_PORT: String(taken) });
      const [code] = await once(cli, 'exit');
      expect(code).toBe(1);
      expect(output).toMatch(new RegExp(`port ${taken} \\(checks service\\) is already in use`));
      // The services that were starting meanwhile were stopped too, not left running (an orphan
      // would finish booting and listen within a few seconds).
      await new Promise((r) => setTimeout(r, 8_000));
      for (const [name, port] of Object.entries(ports))
        if (name !== 'CHECKS_PORT') expect(await isListening(Number(port))).toBe(false);
    } finally {
      blocker.close();
    }
  });
});
