/** The seven services of the platform and the port each listens on by default. */
export const SERVICES = {
  checks: { port: 4001, schema: 'checks' },
  account: { port: 4002, schema: 'account' },
  identity: { port: 4003, schema: 'identity' },
  engagement: { port: 4004, schema: 'engagement' },
  customers: { port: 4005, schema: 'customers' },
  pass: { port: 4006, schema: 'pass' },
  validations: { port: 4007, schema: 'validations' },
} as const;

export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
