// `npm test`: build, type-check, every project's unit suite (nx run-many -t test), then the
// integration suites against real PostgreSQL and Kafka; ends with one line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const summary = path.join(os.tmpdir(), `kyc-test-summary-${process.pid}.jsonl`);
rmSync(summary, { force: true });
const env = { ...process.env, KYC_TEST_SUMMARY_FILE: summary, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const INBOX_WALK = 'apps/console/test/integration/console-inbox.integration-spec.ts';

const steps = [
  ['build', process.execPath, ['tools/build.mjs']],
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  // The API proof's own logic (how it reads schemathesis's findings and the allow-list's reasons).
  ['tools', process.execPath, ['--test', 'tools/api/']],
  // Two projects at a time: each project's jest runs in band on a 2-core machine (maxWorkers = cores - 1).
  ['unit', bin('nx'), ['run-many', '-t', 'test', '--parallel=2', '--outputStyle=stream', '--skip-nx-cache']],
  // Two suites at a time (jest.integration.config.js), but the console's inbox walk, which prints the
  // message-to-screen latency of 50 messages (issue 36), runs alone after, so another suite does not
  // share the 2 cores with it.
  ['integration', process.execPath, ['tools/test-integration.mjs', `--testPathIgnorePatterns=${INBOX_WALK}`]],
  ['inbox walk, alone', process.execPath, ['tools/test-integration.mjs', INBOX_WALK]],
  // One service's suite again with the services behind PgBouncer in transaction mode (no session state).
  [
    'integration through PgBouncer',
    process.execPath,
    ['tools/test-integration.mjs', 'apps/checks/test/integration/check-engine-lifecycle'],
    { TEST_PGBOUNCER: '1' },
  ],
  // The published API as a contract (issue 31): documents validated, clients in four languages generated
  // and run against one stack, schemathesis over the seven services (tools/api/prove.mjs).
  ['api contract', process.execPath, ['tools/api/prove.mjs']],
];

let failedStep;
for (const [name, cmd, args, stepEnv = {}] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${path.basename(cmd)} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, env: { ...env, ...stepEnv }, stdio: 'inherit' });
  console.log(
    `=== ${name}: ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (r.status !== 0) {
    failedStep = name;
    if (name === 'build' || name === 'typecheck') break;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
if (existsSync(summary)) {
  for (const line of readFileSync(summary, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    totals.passed += r.passed;
    totals.failed += r.failed;
    totals.skipped += r.skipped;
  }
  rmSync(summary, { force: true });
}
if (failedStep && totals.failed === 0) totals.failed = 1; // a step failed outside jest (build, typecheck, a crashed suite)
console.log(`\n${failedStep ? `failed step: ${failedStep}` : 'all steps passed'}`);
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failedStep ? 1 : 0);
