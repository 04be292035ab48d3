module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'account',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
