// Stops the broker (possibly restarted by a test: its pid is in kafka.pid) and PostgreSQL.
import { readFile, rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const h = globalThis.__KYC_HARNESS__;
  if (!h) return;
  const pid = Number(await readFile(h.pidFile, 'utf8').catch(() => '0'));
  if (pid) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  await h.kafka.stop().catch(() => {});
  await h.postgres.stop().catch(() => {});
  if (!process.env.KYC_KEEP_TEST_STACK) await rm(h.dir, { recursive: true, force: true });
}
