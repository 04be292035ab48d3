export * from './harness';
export * from './api-client';
export * from './tenants';
export * from './smtp-sink';
export * from './sandbox-messaging/sandbox-messaging.server';
