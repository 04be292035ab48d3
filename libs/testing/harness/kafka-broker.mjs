// A Kafka broker of its own for one suite (tests of broker settings, e.g. a SASL/SCRAM listener):
// `node kafka-broker.mjs '<startKafka options as JSON>'` starts it (libs/devstack/src/kafka.mjs), creates
// the platform's topics (unless `topics: false`: a test creates them), prints one line `READY <json>`
// (brokers, saslBrokers, caFile, libs; toolsLibs with `tools: true`: Kafka's command-line tools) and
// stops the broker on SIGTERM. Run by startKafkaBroker (libs/testing/src/kafka-broker.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureKafkaToolsJars, ensureTopics, startKafka } from '../../devstack/src/kafka.mjs';
import { repoRoot } from '../../devstack/src/util.mjs';

const require = createRequire(import.meta.url);
const { topics = true, tools = false, ...options } = JSON.parse(process.argv[2]);
const { TOPIC_SPECS } = require(path.join(repoRoot, 'dist/libs/contracts/src/topics.js'));
const cacheDir = path.join(repoRoot, '.stack', 'cache');
const toolsLibs = tools ? await ensureKafkaToolsJars(cacheDir) : undefined;
const kafka = await startKafka({ cacheDir, ...options });
if (topics) await ensureTopics(kafka.brokers, TOPIC_SPECS);
const { brokers, saslBrokers, caFile, libs } = kafka;
process.stdout.write(`READY ${JSON.stringify({ brokers, saslBrokers, caFile, libs, toolsLibs })}\n`);
const stop = () => kafka.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
