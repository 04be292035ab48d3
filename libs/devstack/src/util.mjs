// Small helpers of the launchers (ports, waiting, child processes, errors a user reads), shared by
// the dev stack (tools/stack) and the integration-test harness (libs/testing/harness).
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export class StackError extends Error {}

/** Resolves when nothing listens on host:port; rejects with a clear message otherwise. */
export function assertPortFree(port, what, host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err) =>
      reject(
        new StackError(
          err.code === 'EADDRINUSE'
            ? `port ${port} (${what}) is already in use: stop what runs there or set another port (see docs/configuration.md)`
            : `cannot bind port ${port} for ${what}: ${err.message}`,
        ),
      ),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
}

/**
 * `count` distinct TCP ports nothing listens on right now. All are held open until every one is
 * bound: asking one at a time can give the same port twice (the kernel reuses a closed port).
 */
export async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(
      servers.map((s) => new Promise((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))),
    );
  }
}

/** A free TCP port chosen by the kernel (for test stacks that must not clash with a dev stack). */
export async function freePort() {
  const [port] = await freePorts(1);
  return port;
}

export async function waitFor(check, { timeoutMs, intervalMs = 100, what }) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const result = await check();
      if (result) return result;
    } catch (err) {
      if (err instanceof StackError) throw err;
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new StackError(`${what} not ready after ${timeoutMs} ms${lastError ? `: ${lastError.message}` : ''}`);
}

/**
 * Stops a child process: `signal`, then SIGKILL if it has not exited after `graceMs`. Resolves once
 * it has exited (at once if it already had).
 */
export function stopChild(child, graceMs, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Last lines of a log buffer, for error messages. */
export const tail = (text, lines = 15) => text.split('\n').filter(Boolean).slice(-lines).join('\n');
