export * from './api-client';
export * from './harness';
export * from './kafka-broker';
export * from './openapi-contract';
export * from './smtp-sink';
export * from './tenants';
export * from './topics';
export * from '@kyc/devstack';
