module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'customers',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
