export * from './services';
export * from './topics';
export * from './events/event-envelope';
export * from './checks/check.enums';
export * from './checks/check.events';
export * from './account/access.events';
export * from './account/permissions';
export * from './identity/api-key.claims';
