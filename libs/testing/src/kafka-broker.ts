import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { freePorts, harness, repoRoot } from './harness';

export interface KafkaBroker {
  /** The PLAINTEXT listener (the broker's own traffic). */
  brokers: string[];
  /** The SASL_PLAINTEXT listener, when started with `sasl`. */
  saslBrokers: string[];
  stop(): Promise<void>;
}

export interface KafkaBrokerOptions {
  /** A SASL/SCRAM listener with these users (created when the storage is formatted). */
  sasl?: { mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; users: { name: string; password: string }[] };
}

/**
 * A Kafka broker of the suite's own, apart from the run's shared one (libs/testing/harness/
 * kafka-broker.mjs, the stack's startKafka), with the platform's topics; for tests of broker
 * settings such as SASL. Stop it in afterAll.
 */
export async function startKafkaBroker(options: KafkaBrokerOptions = {}): Promise<KafkaBroker> {
  const [port, controllerPort, saslPort] = await freePorts(3);
  const dir = path.join(harness().dir, `kafka-${port}`);
  mkdirSync(dir, { recursive: true });
  const startOptions = {
    dir,
    port,
    controllerPort,
    ...(options.sasl ? { sasl: { port: saslPort, ...options.sasl } } : {}),
  };
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'libs/testing/harness/kafka-broker.mjs'), JSON.stringify(startOptions)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = once(child, 'exit');
  const ready = await new Promise<{ brokers: string[]; saslBrokers?: string[] }>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const line = /^READY (.*)$/m.exec(output);
      if (line) resolve(JSON.parse(line[1]) as { brokers: string[]; saslBrokers?: string[] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the Kafka broker exited (${code}) while starting:\n${output.slice(-3000)}`)),
    );
  });
  return {
    brokers: ready.brokers,
    saslBrokers: ready.saslBrokers ?? [],
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
