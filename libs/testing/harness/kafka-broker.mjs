// A Kafka broker of its own for one suite (tests of broker settings, e.g. a SASL/SCRAM listener):
// `node kafka-broker.mjs '<startKafka options as JSON>'` starts it (tools/stack/kafka.mjs), creates
// the platform's topics, prints one line `READY <json>` (brokers, saslBrokers) and stops the broker
// on SIGTERM. Run by startKafkaBroker (libs/testing/src/kafka-broker.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureTopics, startKafka } from '../../../tools/stack/kafka.mjs';
import { repoRoot } from '../../../tools/stack/util.mjs';

const require = createRequire(import.meta.url);
const options = JSON.parse(process.argv[2]);
const { TOPIC_SPECS } = require(path.join(repoRoot, 'dist/libs/contracts/src/topics.js'));
const kafka = await startKafka({ cacheDir: path.join(repoRoot, '.stack', 'cache'), ...options });
await ensureTopics(kafka.brokers, TOPIC_SPECS);
process.stdout.write(`READY ${JSON.stringify({ brokers: kafka.brokers, saslBrokers: kafka.saslBrokers })}\n`);
const stop = () => kafka.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
