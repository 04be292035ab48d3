module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'pass',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
