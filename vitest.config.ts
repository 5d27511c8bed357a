import { defineConfig } from 'vitest/config'

// The API suites: the template databases are built once per run (each file copies one), and
// files share a worker's loaded modules (no isolation), so a test file must not depend on fresh
// module state; every file builds its own app and database. Two workers overlap the waits.
const serverTests = {
  globalSetup: ['./src/test/global-setup.ts'],
  isolate: false,
  maxWorkers: 2,
}

// One runner for every tier: contracts and server units, API against PGlite and (when
// TEST_DATABASE_URL is set) a real PostgreSQL, web components in jsdom, and e2e in Chromium.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          ...serverTests,
          // Projects with their own worker count run as their own group, one after another.
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          root: 'apps/server',
          environment: 'node',
          include: [
            'src/modules/**/*.test.ts',
            'src/plugins/**/*.test.ts',
            'src/test/**/*.test.ts',
            'src/db/schema.test.ts',
          ],
          env: { TEST_DB: 'postgres' },
          ...serverTests,
          sequence: { groupOrder: 2 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          environment: 'node',
          include: ['**/*.spec.ts'],
          globalSetup: ['./global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
