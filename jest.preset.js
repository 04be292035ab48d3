// Shared jest settings: TypeScript through SWC (with decorator metadata for Nest and TypeORM)
// and the workspace path aliases of tsconfig.base.json.
const path = require('node:path');

const root = __dirname;

module.exports = {
  testEnvironment: 'node',
  reporters: ['default', path.join(__dirname, 'tools/jest-summary-reporter.js')],
  // Keeps V8's code cache of each compiled module across the test files of a jest process (see the file).
  runtime: path.join(__dirname, 'tools/jest-code-cache-runtime.js'),
  // content-disposition 3 (used by @fastify/static for /docs) ships ESM only: compile it too.
  transformIgnorePatterns: [
    '^(?!.*/node_modules/(content-disposition|openid-client|oauth4webapi|jose)/).*/node_modules/',
  ],
  transform: {
    '^.+\\.(ts|js)$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@kyc/contracts$': path.join(root, 'libs/contracts/src/index.ts'),
    '^@kyc/platform$': path.join(root, 'libs/platform/src/index.ts'),
    '^@kyc/platform/tracing$': path.join(root, 'libs/platform/src/tracing.ts'),
    '^@kyc/testing$': path.join(root, 'libs/testing/src/index.ts'),
    '^@kyc/devstack$': path.join(root, 'libs/devstack/src/index.ts'),
    '^@kyc/json-logic$': path.join(root, 'libs/json-logic/src/index.ts'),
    '^@kyc/client$': path.join(root, 'libs/client/src/index.ts'),
  },
};
