import './kafkajs-request-queue.fix';

import { Kafka, LogEntry,logLevel } from 'kafkajs';

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

export const kafkaClientOptions = (clientId: string, brokers: string[]) => ({
  clientId,
  brokers,
  logLevel: logLevel.WARN,
  logCreator: kafkaLogCreator,
  retry: { initialRetryTime: 200, retries: 8 },
});

export function createKafka(clientId: string, brokers: string[]): Kafka {
  return new Kafka(kafkaClientOptions(clientId, brokers));
}
