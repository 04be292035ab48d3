module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'engagement',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
