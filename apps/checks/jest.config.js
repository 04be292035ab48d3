module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'checks',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
