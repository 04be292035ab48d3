module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'identity',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
