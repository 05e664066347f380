// Test tiers: unit (*.spec.ts, no infrastructure), integration (*.int-spec.ts, real PostgreSQL and Redis),
// end-to-end (apps/stack-e2e, the real apps over HTTP). `npm test` runs these three; `npm run test:faults`
// runs the fault experiments (*.fault-spec.ts: the built apps on a private Redis and database, broken on purpose).
const transform = { '^.+\\.ts$': '<rootDir>/tools/dev/jest-transform.cjs' };
const common = {
  testEnvironment: '<rootDir>/tools/dev/jest-quiet-environment.cjs',
  transform,
  rootDir: __dirname,
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/.cache'],
  setupFiles: ['<rootDir>/tools/dev/jest-setup.cjs'],
  testTimeout: 120000,
};

module.exports = {
  testTimeout: 120000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/tools/dev/jest-e2e-setup.cjs',
      globalTeardown: '<rootDir>/tools/dev/jest-e2e-teardown.cjs',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/apps/stack-e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/tools/dev/jest-e2e-setup.cjs',
      globalTeardown: '<rootDir>/tools/dev/jest-e2e-teardown.cjs',
    },
    {
      ...common,
      displayName: 'faults',
      testMatch: ['<rootDir>/apps/stack-e2e/**/*.fault-spec.ts'],
      testTimeout: 300000,
      globalSetup: '<rootDir>/tools/dev/jest-e2e-setup.cjs',
      globalTeardown: '<rootDir>/tools/dev/jest-e2e-teardown.cjs',
    },
  ],
};
