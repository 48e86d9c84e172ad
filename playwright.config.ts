// Playwright: the `browser` project drives the browser mode in Chromium (runs everywhere, CI
// included); the `electron` project drives the built Electron app where its binary exists and
// skips with the reason elsewhere. Each test gets its own app instance, data folder and
// simulator script (test/e2e/fixtures/app.ts); out/ is rebuilt first when stale (global-setup.ts).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e/specs',
  globalSetup: './test/e2e/global-setup.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    trace: 'retain-on-failure',
    video: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'browser', metadata: { host: 'browser' } },
    { name: 'electron', metadata: { host: 'electron' } },
  ],
});
