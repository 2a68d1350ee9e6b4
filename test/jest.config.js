/** Jest in ESM mode, TypeScript through swc (decorator metadata included). */
const swc = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'es6' },
  jsc: {
    target: 'es2023',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
};

export default {
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/support/global-setup.js',
  testTimeout: 60_000,
  // Files share one machine's PostgreSQL and Redis (each in its own database and key prefix);
  // two at a time keeps both cores busy without starving the process-killing tests.
  maxWorkers: 2,
};
