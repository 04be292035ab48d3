// Integration suites of every app and lib, against one real PostgreSQL and one real Kafka broker
// started once per run by libs/testing/harness. Run through `npm run test:integration`.
module.exports = {
  ...require('./jest.preset.js'),
  displayName: 'integration',
  reporters: [...require('./jest.preset.js').reporters, '<rootDir>/tools/jest-suite-times-reporter.js'],
  rootDir: __dirname,
  testMatch: [
    '<rootDir>/apps/*/test/integration/**/*.integration-spec.ts',
    '<rootDir>/libs/*/test/integration/**/*.integration-spec.ts',
  ],
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/contract.setup.ts'],
  globalSetup: '<rootDir>/libs/testing/harness/global-setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/harness/global-teardown.mjs',
  // One suite at a time unless TEST_INTEGRATION_WORKERS says more; each jest worker has its own
  // PostgreSQL and Kafka (harness/global-setup.mjs). Two halve the integration step on a 2-core machine,
  // but the load they add still turns a few suites' timing flaky, so CI runs one.
  maxWorkers: Number(process.env.TEST_INTEGRATION_WORKERS || 1),
  // A bound for a hung test, not a wait: on a loaded 2-core machine a suite's boot and a browser
  // test take minutes.
  testTimeout: 180_000,
  forceExit: true,
};
