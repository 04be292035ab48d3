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
  // Two suites at a time, each jest worker on its own PostgreSQL and Kafka (harness/global-setup.mjs):
  // a suite waits on its services most of the time, so two share the 2-core machine. One when
  // tools/test-integration.mjs is given paths, unless TEST_INTEGRATION_WORKERS says otherwise.
  maxWorkers: Number(process.env.TEST_INTEGRATION_WORKERS || 2),
  // A bound for a hung test, not a wait: on a loaded 2-core machine a suite's boot and a browser
  // test take minutes.
  testTimeout: 180_000,
  forceExit: true,
};
