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
  maxWorkers: 1,
  // A bound for a hung test, not a wait: on a loaded 2-core machine a suite's boot and a browser
  // test take minutes.
  testTimeout: 180_000,
  forceExit: true,
};
