import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from './support/chromium.ts'

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  // Each worker runs its own anvil pair and app server, so files run in parallel without sharing state.
  workers: process.env.CI ? 2 : 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]],
  use: {
    browserName: 'chromium',
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    serviceWorkers: 'block',
  },
})
