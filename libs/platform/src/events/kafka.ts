import './kafkajs-request-queue.fix';

import { Kafka, KafkaConfig, LogEntry, logLevel, SASLOptions } from 'kafkajs';

import { rootLogger } from '../observability/logger';

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** kafkajs logs through the process logger (JSON), at warn and above. */
export function kafkaLogCreator() {
  const logger = rootLogger().child({ context: 'kafka' });
  return ({ level, log }: LogEntry) => {
    const { message, ...extra } = log;
    logger[LEVELS[level] ?? 'info']({ kafka: extra }, message);
  };
}

/**
 * How a service's Kafka clients connect (PlatformConfig.kafkaConnection): the client id prefix,
 * the brokers, TLS (`true`, or the CA of a private PKI) and SASL credentials. Plain data, so the
 * relay thread gets it as it is.
 */
export interface KafkaConnection {
  clientId: string;
  brokers: string[];
  ssl?: true | { ca: string[] };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** The kafkajs options of one client of the service; `role` suffixes the client id (`-consumer`, `-producer`). */
export const kafkaClientOptions = (connection: KafkaConnection, role?: string): KafkaConfig => ({
  clientId: role ? `${connection.clientId}-${role}` : connection.clientId,
  brokers: connection.brokers,
  ...(connection.ssl ? { ssl: connection.ssl } : {}),
  ...(connection.sasl ? { sasl: { ...connection.sasl } as SASLOptions } : {}),
  logLevel: logLevel.WARN,
  logCreator: kafkaLogCreator,
  retry: { initialRetryTime: 200, retries: 8 },
});

/** The Kafka client of a service (admin, access cache); the relay thread and the consumers build their own from the same connection. */
export function createKafka(connection: KafkaConnection, role?: string): Kafka {
  return new Kafka(kafkaClientOptions(connection, role));
}
