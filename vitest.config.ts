import { defineConfig } from 'vitest/config'

// One project per environment; the web app (jsdom/browser) adds its own entry here.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['packages/**/src/**/*.test.ts', 'apps/api/src/**/*.test.ts', 'scripts/**/*.test.ts'],
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
