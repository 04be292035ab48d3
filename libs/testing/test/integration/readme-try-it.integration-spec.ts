import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { SERVICE_NAMES } from '@kyc/contracts';

import { eventually, freePorts, harness, repoRoot, shareStackKeys } from '../../src';

interface Answer {
  check?: Record<string, unknown>;
  details?: unknown[];
  checks?: { check_id: string }[];
}

/** The fenced bash blocks of README.md's "Try it" section, in order. */
function tryItBlocks(): string[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Try it'), readme.indexOf('\n## ', readme.indexOf('## Try it') + 1));
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/**
 * What a new user does: start the platform with the stack command, then paste the README's "Try it"
 * lines in a shell at the repository root. Here the stack uses the harness's PostgreSQL and Kafka
 * and free ports, and the shell runs in a directory whose `.stack` is the stack's directory.
 */
describe("README.md's try-it lines", () => {
  const stackDir = mkdtempSync(path.join(os.tmpdir(), 'kyc-readme-stack-'));
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'kyc-readme-cwd-'));
  let cli: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    symlinkSync(stackDir, path.join(cwd, '.stack'));
    shareStackKeys(stackDir);
    const ports = await freePorts(SERVICE_NAMES.length);
    cli = spawn(process.execPath, [path.join(repoRoot, 'tools/stack/cli.mjs'), 'start'], {
      env: {
        ...process.env,
        STACK_DIR: stackDir,
        DATABASE_URL: harness().databaseUrl,
        KAFKA_BROKERS: harness().kafkaBrokers.join(','),
        LOG_LEVEL: 'warn',
        ...Object.fromEntries(SERVICE_NAMES.map((name, i) => [`${name.toUpperCase()}_PORT`, String(ports[i])])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cli.stdout!.on('data', (d) => (output += d));
    cli.stderr!.on('data', (d) => (output += d));
    await eventually(() => expect(output).toContain('Written to'), {
      timeoutMs: 120_000,
      intervalMs: 250,
      bail: () => cli!.exitCode !== null,
    }).catch((err: Error) => {
      // The stack's directory is removed after the run: keep what its services said.
      const logs = path.join(stackDir, 'logs');
      const tails = existsSync(logs)
        ? readdirSync(logs).map((f) => `--- ${f}\n${readFileSync(path.join(logs, f), 'utf8').slice(-1500)}`)
        : [];
      throw new Error(`${err.message}\n${tails.join('\n')}`);
    });
  }, 150_000);

  afterAll(async () => {
    if (cli && cli.exitCode === null && cli.signalCode === null) {
      const exited = once(cli, 'exit');
      cli.kill('SIGTERM');
      const timer = setTimeout(() => cli!.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(cwd, { recursive: true, force: true });
    rmSync(stackDir, { recursive: true, force: true });
  });

  const bash = (script: string) => {
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd, encoding: 'utf8', timeout: 60_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };

  it('create a check and read it back, then list it', () => {
    const [first] = tryItBlocks();
    const run = bash(`${first}\necho "ID=$ID"`);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const id = /ID=(CHK\w+)/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    const answers = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Answer);
    // The POST, the GET, the details and the list, in that order.
    expect(answers).toHaveLength(4);
    expect(answers[0].check).toMatchObject({ check_id: id, country: 'CO', type: 'person', national_id: '1000000002' });
    expect(answers[1].check).toMatchObject({ check_id: id });
    expect(Array.isArray(answers[2].details)).toBe(true);
    expect(answers[3].checks?.map((c) => c.check_id)).toContain(id);
  });

  it('shows a refusal in the error envelope', () => {
    const [first, second] = tryItBlocks();
    const setup = first.split('\n').slice(0, 2).join('\n'); // KEY and CHECKS
    const run = bash(`${setup}\n${second}`);
    expect(run.status).toBe(0);
    const body = JSON.parse(run.stdout) as { code: number; error_code: string; fields: { field: string }[] };
    expect(body).toMatchObject({ code: 400, error_code: 'validation_failed' });
    expect(body.fields.map((f) => f.field)).toContain('country');
  });
});
