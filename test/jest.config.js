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
    // The api's and the workers' entries in source, as their exports' `@offers/source` condition
    // names them: tests run what is in the tree, not the last build.
    '^@offers/api/rules$': '<rootDir>/api/src/rules/index.ts',
    '^@offers/api/(.*)$': '<rootDir>/api/src/entries/$1',
    '^@offers/workers/(.*)$': '<rootDir>/workers/src/entries/$1',
  },
  transform: { '^.+\\.ts$': ['@swc/jest', swc], '^.+\\.tsx$': ['@swc/jest', swcTsx] },
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 60_000,
  // Files share one machine's PostgreSQL and Redis (each in its own database and key prefix);
  // two at a time keeps both cores busy without starving the process-killing tests.
  maxWorkers: 2,
  // Each file loads the api through its entries into the worker's module registry, and the
  // registries of ESM test files are not all freed: a worker past this size after a file is
  // replaced by a fresh one rather than run into its heap limit.
  workerIdleMemoryLimit: '1.5GB',
};
