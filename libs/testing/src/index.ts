export * from './harness';
export * from './api-client';
export * from './tenants';
export * from './smtp-sink';
