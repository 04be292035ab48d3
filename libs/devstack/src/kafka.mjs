// A real Apache Kafka 3.9 broker in KRaft mode (one node, broker + controller), from the jars of
// org.apache.kafka:kafka_2.13 resolved once from Maven Central and cached under the stack dir.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import kafkajs from 'kafkajs';

import { assertPortFree, StackError, stopChild, tail, waitFor } from './util.mjs';

export const KAFKA_VERSION = '3.9.1';

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.stack</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
`;

const LOG4J = `log4j.rootLogger=WARN, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=\${kafka.logs.dir}/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaServer=INFO
log4j.logger.kafka.server.BrokerServer=INFO
`;

function checkJava() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error)
    throw new StackError(
      'Java was not found on PATH: Kafka needs Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)',
    );
  const m = /version "(\d+)/.exec(r.stderr ?? '');
  if (m && Number(m[1]) < 17) throw new StackError(`Kafka ${KAFKA_VERSION} here needs Java 17+, found Java ${m[1]}`);
}

/** Downloads the broker jars with Maven once; later starts reuse them. */
export function ensureKafkaJars(cacheDir, log = () => {}) {
  return ensureJars({
    dir: path.join(cacheDir, `kafka-${KAFKA_VERSION}`),
    pom: POM,
    marker: 'kafka_2.13-',
    artifact: `org.apache.kafka:kafka_2.13:${KAFKA_VERSION}`,
    log,
  });
}

const TOOLS_POM = POM.replace(
  '<artifactId>kafka-runtime</artifactId>',
  '<artifactId>kafka-tools-runtime</artifactId>',
).replace('<artifactId>kafka_2.13</artifactId>', '<artifactId>kafka-tools</artifactId>');

/**
 * The jars of Kafka's command-line tools (org.apache.kafka:kafka-tools: TopicCommand, which
 * `kafka-topics.sh` runs), resolved with Maven once into a folder of their own; with the broker's
 * jars on the class path they run as the scripts of the Kafka image do.
 */
export function ensureKafkaToolsJars(cacheDir, log = () => {}) {
  return ensureJars({
    dir: path.join(cacheDir, `kafka-tools-${KAFKA_VERSION}`),
    pom: TOOLS_POM,
    marker: 'kafka-tools-',
    artifact: `org.apache.kafka:kafka-tools:${KAFKA_VERSION}`,
    log,
  });
}

/** The resolutions under way in this process, by folder: brokers started side by side share one. */
const resolving = new Map();

/**
 * `dir`/libs holding the runtime jars of `pom`, resolved with Maven the first time. Maven works in a
 * folder of its own and the jars move into place with one rename, so processes resolving at the same
 * time (test workers on a fresh clone) never read each other's half-written files.
 */
function ensureJars({ dir, pom, marker, artifact, log }) {
  const libs = path.join(dir, 'libs');
  const ready = () => existsSync(libs) && readdirSync(libs).some((f) => f.startsWith(marker));
  if (ready()) return Promise.resolve(libs);
  let resolved = resolving.get(libs);
  if (!resolved) {
    resolved = (async () => {
      const work = `${dir}.resolving-${process.pid}-${randomBytes(4).toString('hex')}`;
      await mkdir(work, { recursive: true });
      try {
        await writeFile(path.join(work, 'pom.xml'), pom);
        log(`resolving ${artifact} jars from Maven Central (first use only)`);
        const r = spawnSync(
          'mvn',
          ['-q', '-B', 'dependency:copy-dependencies', '-DoutputDirectory=libs', '-DincludeScope=runtime'],
          { cwd: work, encoding: 'utf8' },
        );
        if (r.error)
          throw new StackError(
            'Maven (mvn) was not found on PATH: it resolves the Kafka jars (Debian: apt-get install maven)',
          );
        if (r.status !== 0)
          throw new StackError(`Maven could not resolve ${artifact}:\n${tail(`${r.stdout}\n${r.stderr}`)}`);
        await mkdir(dir, { recursive: true });
        // Another process may have put its copy in place first: the same jars, kept.
        await rename(path.join(work, 'libs'), libs).catch((err) => {
          if (!ready()) throw err;
        });
        return libs;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    })();
    resolving.set(libs, resolved);
    resolved.catch(() => resolving.delete(libs));
  }
  return resolved;
}

/**
 * A private CA and the broker's certificate for 127.0.0.1 (openssl), as PEM files in `dir`:
 * ca.pem (what clients trust) and server.pem (the certificate and its key, encrypted with
 * `password`, as Kafka's PEM keystore reads it). Made once per broker directory.
 */
function makeTlsFiles(dir, password) {
  const ca = path.join(dir, 'ca.pem');
  const keystore = path.join(dir, 'server.pem');
  if (existsSync(ca) && existsSync(keystore)) return { ca, keystore };
  const run = (args) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.error) throw new StackError("openssl was not found on PATH: it makes the TLS listener's certificates");
    if (r.status !== 0) throw new StackError(`openssl ${args[0]} failed:\n${tail(r.stderr)}`);
  };
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '30',
    '-subj',
    '/CN=stack-kafka-ca',
  ]);
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '30',
    '-extfile',
    'san.ext',
  ]);
  run([
    'pkcs8',
    '-topk8',
    // PBES1 (Java 17's keystore reader has no PBES2).
    '-v1',
    'PBE-SHA1-3DES',
    '-in',
    'server.key',
    '-out',
    'server.key.enc',
    '-passout',
    `pass:${password}`,
  ]);
  writeFileSync(
    keystore,
    readFileSync(path.join(dir, 'server.key.enc'), 'utf8') + readFileSync(path.join(dir, 'server.crt'), 'utf8'),
  );
  return { ca, keystore };
}

/**
 * Starts the broker. `sasl` (tests of managed-Kafka settings) adds a SASL listener on `sasl.port`
 * with SCRAM (`mechanism` SCRAM-SHA-256 or SCRAM-SHA-512) and the given users, created when the
 * storage is formatted: SASL_PLAINTEXT, or SASL_SSL with `sasl.tls` (a private CA: the result's
 * `caFile`), as managed clusters run it; the PLAINTEXT listener stays for the broker's own traffic.
 * `readyTimeoutMs`: how long the broker may take to answer (a JVM starting on a loaded machine is slow).
 */
export async function startKafka({
  dir,
  cacheDir,
  port,
  controllerPort,
  sasl,
  readyTimeoutMs = 60_000,
  log = () => {},
}) {
  checkJava();
  const libs = await ensureKafkaJars(cacheDir, log);
  await assertPortFree(port, 'Kafka');
  await assertPortFree(controllerPort, 'Kafka controller');
  if (sasl) await assertPortFree(sasl.port, 'Kafka SASL listener');
  const saslName = sasl?.tls ? 'SASL_SSL' : 'SASL_PLAINTEXT';
  const saslListener = sasl ? `,${saslName}://127.0.0.1:${sasl.port}` : '';
  await mkdir(dir, { recursive: true });
  const keyPassword = 'stack-kafka-tls';
  const tls = sasl?.tls ? makeTlsFiles(dir, keyPassword) : undefined;
  const dataDir = path.join(dir, 'data');
  const logsDir = path.join(dir, 'logs');
  await mkdir(logsDir, { recursive: true });
  const props = path.join(dir, 'server.properties');
  await writeFile(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}${saslListener}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}${saslListener}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      `listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT${sasl ? `,${saslName}:${saslName}` : ''}`,
      ...(sasl
        ? [
            `sasl.enabled.mechanisms=${sasl.mechanism}`,
            `listener.name.${saslName.toLowerCase()}.${sasl.mechanism.toLowerCase()}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
          ]
        : []),
      ...(tls
        ? [
            `listener.name.sasl_ssl.ssl.keystore.type=PEM`,
            `listener.name.sasl_ssl.ssl.keystore.location=${tls.keystore}`,
            `listener.name.sasl_ssl.ssl.key.password=${keyPassword}`,
          ]
        : []),
      `log.dirs=${dataDir}`,
      'num.partitions=3',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=10',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=false',
      'log.cleaner.min.compaction.lag.ms=0',
      '',
    ].join('\n'),
  );
  const javaOpts = [
    '-Xms256m',
    '-Xmx768m',
    '-XX:+UseSerialGC',
    '-Xshare:auto',
    `-Dlog4j.configuration=file:${path.join(dir, 'log4j.properties')}`,
    `-Dkafka.logs.dir=${logsDir}`,
  ];
  await writeFile(path.join(dir, 'log4j.properties'), LOG4J);
  const cp = `${libs}/*`;
  if (!existsSync(path.join(dataDir, 'meta.properties'))) {
    // A base64url UUID; one starting with '-' would be read as an option by the storage tool.
    let clusterId;
    do clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-'));
    const r = spawnSync(
      'java',
      [
        ...javaOpts,
        '-cp',
        cp,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        clusterId,
        '-c',
        props,
        ...(sasl?.users ?? []).flatMap((u) => [
          '--add-scram',
          `${sasl.mechanism}=[name=${u.name},password=${u.password}]`,
        ]),
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new StackError(`Kafka StorageTool format failed:\n${tail(`${r.stdout}\n${r.stderr}`)}`);
  }
  const out = createWriteStream(path.join(logsDir, 'stdout.log'), { flags: 'a' });
  let output = '';
  const args = [...javaOpts, '-cp', cp, 'kafka.Kafka', props];
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const s of [child.stdout, child.stderr])
    s.on('data', (d) => {
      out.write(d);
      output = (output + d).slice(-20_000);
    });
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const brokers = [`127.0.0.1:${port}`];
  const kafka = new kafkajs.Kafka({
    clientId: 'stack',
    brokers,
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 0 },
  });
  await waitFor(
    async () => {
      if (exited) throw new StackError(`Kafka exited (code ${exited.code}) while starting:\n${tail(output)}`);
      const admin = kafka.admin();
      try {
        await admin.connect();
        const { brokers: list } = await admin.describeCluster();
        return list.length > 0;
      } finally {
        await admin.disconnect().catch(() => {});
      }
    },
    { timeoutMs: readyTimeoutMs, intervalMs: 250, what: 'Kafka broker' },
  ).catch((err) => {
    child.kill('SIGKILL');
    throw err instanceof StackError && exited ? err : new StackError(`${err.message}\n${tail(output)}`);
  });
  const stop = async () => {
    if (exited) return;
    await stopChild(child, 15_000);
    out.end();
  };
  return {
    brokers,
    libs,
    ...(sasl ? { saslBrokers: [`127.0.0.1:${sasl.port}`] } : {}),
    ...(tls ? { caFile: tls.ca } : {}),
    stop,
    pid: child.pid,
    process: child,
    command: { file: 'java', args },
  };
}

/** Creates the platform's topics (compacted state topics included); existing ones are left alone. */
export async function ensureTopics(brokers, specs) {
  const kafka = new kafkajs.Kafka({ clientId: 'stack-admin', brokers, logLevel: kafkajs.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.name));
    if (missing.length) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((s) => ({
          topic: s.name,
          numPartitions: s.partitions,
          replicationFactor: 1,
          configEntries: s.compacted
            ? [
                { name: 'cleanup.policy', value: 'compact' },
                { name: 'segment.ms', value: '3600000' },
              ]
            : [],
        })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}
