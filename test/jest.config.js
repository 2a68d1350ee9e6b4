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

/** Component tests of the web apps (`*.test.tsx`): TSX with React's automatic runtime. */
const swcTsx = {
  ...swc,
  jsc: {
    ...swc.jsc,
    parser: { syntax: 'typescript', tsx: true },
    transform: { ...swc.jsc.transform, react: { runtime: 'automatic' } },
  },
};

export default {
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // The api package's source, as its exports' `@offers/source` condition names it for the web
    // apps' builds: tests run what is in the tree, not the last build.
    '^@offers/api/rules$': '<rootDir>/api/src/rules/index.ts',
    '^@offers/api/(.*)$': '<rootDir>/api/src/$1',
  },
  transform: { '^.+\\.ts$': ['@swc/jest', swc], '^.+\\.tsx$': ['@swc/jest', swcTsx] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 60_000,
  // Files share one machine's PostgreSQL and Redis (each in its own database and key prefix);
  // two at a time keeps both cores busy without starving the process-killing tests.
  maxWorkers: 2,
};
