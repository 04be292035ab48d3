import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { freePorts, harness, repoRoot } from './harness';

export interface KafkaBroker {
  /** The PLAINTEXT listener (the broker's own traffic). */
  brokers: string[];
  /** The SASL listener (SASL_PLAINTEXT, or SASL_SSL with `sasl.tls`), when started with `sasl`. */
  saslBrokers: string[];
  /** With `sasl.tls`: the PEM of the private CA that signed the listener's certificate. */
  caFile?: string;
  /** The broker's jars. */
  libs: string;
  /** With `tools`: the jars of Kafka's command-line tools (kafka-topics.sh runs org.apache.kafka.tools.TopicCommand from them). */
  toolsLibs?: string;
  stop(): Promise<void>;
}

export interface KafkaBrokerOptions {
  /** A SASL/SCRAM listener with these users (created when the storage is formatted). */
  sasl?: {
    mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512';
    users: { name: string; password: string }[];
    /** SASL_SSL (a private CA) instead of SASL_PLAINTEXT. */
    tls?: boolean;
  };
  /** false: no topics (the test creates them, e.g. with the topics Job's script). Default true. */
  topics?: boolean;
  /** Also resolve the jars of Kafka's command-line tools (toolsLibs). */
  tools?: boolean;
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
    ...(options.topics === false ? { topics: false } : {}),
    ...(options.tools ? { tools: true } : {}),
  };
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'libs/testing/harness/kafka-broker.mjs'), JSON.stringify(startOptions)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = once(child, 'exit');
  type Ready = { brokers: string[]; saslBrokers?: string[]; caFile?: string; libs: string; toolsLibs?: string };
  const ready = await new Promise<Ready>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const line = /^READY (.*)$/m.exec(output);
      if (line) resolve(JSON.parse(line[1]) as Ready);
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
    ...(ready.caFile ? { caFile: ready.caFile } : {}),
    libs: ready.libs,
    ...(ready.toolsLibs ? { toolsLibs: ready.toolsLibs } : {}),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
