module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'console',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/web/src/**/*.spec.ts'],
};
