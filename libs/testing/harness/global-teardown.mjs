// Stops each worker's broker (possibly restarted by a test: its pid is in kafka.pid) and PostgreSQL,
// then removes the run's data.
import { readFile, rm } from 'node:fs/promises';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export default async function globalTeardown() {
  const h = globalThis.__KYC_HARNESS__;
  if (!h) return;
  await Promise.all(h.stacks.map(stopWorkerStack));
  if (!process.env.KYC_KEEP_TEST_STACK)
    await rm(h.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

async function stopWorkerStack(h) {
  const pid = Number(await readFile(h.pidFile, 'utf8').catch(() => '0'));
  if (pid) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    // A killed broker is not gone at once: removing its data meanwhile can race with its last
    // writes (ENOTEMPTY).
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  }
  await h.kafka.stop().catch(() => {});
  await h.pgbouncer?.stop().catch(() => {});
  await h.postgres.stop().catch(() => {});
}
