module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'validations',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
