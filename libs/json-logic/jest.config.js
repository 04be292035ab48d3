module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'json-logic',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
