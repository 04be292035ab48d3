export * from './api-client';
export * from './harness';
export * from './sandbox-messaging/sandbox-messaging.server';
export * from './smtp-sink';
export * from './tenants';
export * from './openapi-contract';
