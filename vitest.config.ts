import { configDefaults, defineConfig } from 'vitest/config'

// `*.postgres.test.ts` need a PostgreSQL server (several API processes on one database): they run in the
// PostgreSQL pass of `npm test`, where scripts/with-postgres.sh sets TEST_DATABASE_URL.
const postgresOnly = process.env.TEST_DATABASE_URL ? [] : ['**/*.postgres.test.ts']

// One project per environment; the web app (jsdom/browser) adds its own entry here.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['packages/**/src/**/*.test.ts', 'apps/api/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...postgresOnly],
          // Hooks start real parts (a PGlite database from its template, anvil, a server process). On a
          // loaded 2-core machine a PGlite load alone took over vitest's default 10 s; a test's own limits
          // are unchanged.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          // Fails any test that logs console.error it did not declare (see the file).
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
    ],
  },
})
