// Starts the seven service processes (node dist/apps/<svc>/src/main.js) and waits for /health.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { assertPortFree, repoRoot, StackError, stopChild, tail, waitFor } from './util.mjs';

/**
 * Node flags of every service process, in one place (libs/devstack/service-node-flags.json): the
 * stack, the test harness, the Dockerfile's CMD and the apps' `serve` targets use the same ones
 * (deploy/test/deploy-image.spec.ts checks).
 */
export const SERVICE_NODE_FLAGS = JSON.parse(
  readFileSync(new URL('../../libs/devstack/service-node-flags.json', import.meta.url), 'utf8'),
);

export function serviceEntry(name) {
  return path.join(repoRoot, 'dist', 'apps', name, 'src', 'main.js');
}

/**
 * Spawns one service. `env` is the full service environment (see docs/configuration.md).
 * Output goes to <logsDir>/<name>.log; the last lines are shown if it fails to start.
 */
export async function startService({
  name,
  port,
  env,
  logsDir,
  // STACK_HEALTH_TIMEOUT_MS: a longer wait for a machine under heavy load (bench runs on a shared host).
  healthTimeoutMs = Number(process.env.STACK_HEALTH_TIMEOUT_MS) || 60_000,
}) {
  await assertPortFree(port, `${name} service`);
  await mkdir(logsDir, { recursive: true });
  const logFile = path.join(logsDir, `${name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  let recent = '';
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, serviceEntry(name)], {
    cwd: repoRoot,
    env: { ...process.env, ...env, SERVICE_NAME: name, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [child.stdout, child.stderr])
    s.on('data', (d) => {
      out.write(d);
      recent = (recent + d).slice(-20_000);
    });
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (exited)
        throw new StackError(
          `${name} exited (code ${exited.code}) while starting; see ${path.relative(repoRoot, logFile)}:\n${tail(recent)}`,
        );
      const res = await fetch(`${url}/health`);
      return res.status === 200;
    },
    { timeoutMs: healthTimeoutMs, intervalMs: 150, what: `${name} /health` },
  ).catch((err) => {
    child.kill('SIGKILL');
    throw err instanceof StackError && exited ? err : new StackError(`${err.message}\n${tail(recent)}`);
  });
  const stop = async (signal = 'SIGTERM') => {
    if (exited) return;
    await stopChild(child, 10_000, signal);
    out.end();
  };
  return { name, url, port, pid: child.pid, process: child, stop, logFile };
}

/** Waits before restart n (1-based): 1 s, 2 s, 4 s … capped at 30 s. */
export const restartBackoffMs = (n) => Math.min(30_000, 1_000 * 2 ** (n - 1));

/**
 * Starts a service and keeps it running, as Kubernetes does in production: when its process dies
 * (not stopped by us) it is started again after a backoff (1 s, 2 s, 4 s … 30 s; back to 1 s once
 * it ran for a minute), and each exit and restart is logged. Returns a handle whose `process`,
 * `pid` are those of the current process and whose `stop()` stops it for good.
 */
export async function superviseService(options, { log = () => {}, backoffMs = restartBackoffMs } = {}) {
  let current = await startService(options);
  let stopped = false;
  let restarts = 0;
  let startedAt = Date.now();
  let timer;
  const handle = {
    name: current.name,
    url: current.url,
    port: current.port,
    logFile: current.logFile,
    get process() {
      return current.process;
    },
    get pid() {
      return current.pid;
    },
    get restarts() {
      return restarts;
    },
    stop: async (signal) => {
      stopped = true;
      clearTimeout(timer);
      await current.stop(signal);
    },
  };
  const watch = (svc) =>
    svc.process.once('exit', (code, signal) => {
      if (stopped) return;
      if (Date.now() - startedAt > 60_000) restarts = 0;
      restarts++;
      const wait = backoffMs(restarts);
      log(
        `${svc.name} exited unexpectedly (${signal ?? `code ${code}`}); see ${path.relative(repoRoot, svc.logFile)}. ` +
          `Restarting in ${(wait / 1000).toFixed(0)} s (restart ${restarts}).`,
      );
      const attempt = () => {
        timer = setTimeout(async () => {
          if (stopped) return;
          try {
            current = await startService(options);
            startedAt = Date.now();
            if (stopped) return void current.stop();
            log(`${svc.name} restarted at ${current.url}`);
            watch(current);
          } catch (err) {
            restarts++;
            log(
              `${svc.name} did not restart: ${String(err.message).split('\n')[0]}; trying again in ${(backoffMs(restarts) / 1000).toFixed(0)} s`,
            );
            attempt();
          }
        }, backoffMs(restarts));
      };
      attempt();
    });
  watch(current);
  return handle;
}

/**
 * Runs a service's operator command (`node dist/apps/<name>/src/main.js admin <command> …`, the one
 * the image ships and the Kubernetes bootstrap Job runs) with the service's environment and resolves
 * with the JSON line it prints; its one-line refusal becomes the StackError.
 */
export function runAdmin(name, command, flags, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serviceEntry(name), 'admin', command, ...flags], {
      cwd: repoRoot,
      env: { ...process.env, ...env, SERVICE_NAME: name },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0)
        return reject(
          new StackError(`${name} admin ${command} failed (exit ${code}): ${stderr.trim() || stdout.trim()}`),
        );
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1)));
      } catch {
        reject(new StackError(`${name} admin ${command} printed no result: ${stdout.trim()} ${stderr.trim()}`));
      }
    });
  });
}
