// Playwright: the `browser` project drives the browser mode in Chromium (runs everywhere, CI
// included); the `electron` project drives the built Electron app where its binary exists and
// skips with the reason elsewhere. Each test gets its own app instance, data folder, workspace,
// port and simulator (test/e2e/fixtures/app.ts), so spec files run on several workers at once (two
// unless RESOLUTE_E2E_WORKERS says otherwise; this is the one place that decides it); the tests of
// one file stay in order on one worker. out/ is rebuilt first when stale (global-setup.ts).
import { defineConfig } from '@playwright/test';

/** RESOLUTE_E2E_WORKERS: a number of workers, or a share of the cores such as "50%"; else 2. */
function workers(): number | string {
  const asked = process.env.RESOLUTE_E2E_WORKERS?.trim();
  if (!asked) return 2;
  if (/^[1-9]\d*$/.test(asked)) return Number(asked);
  if (/^[1-9]\d*%$/.test(asked)) return asked;
  throw new Error(`RESOLUTE_E2E_WORKERS is a number of workers or a share of the cores such as "50%", not "${asked}"`);
}

export default defineConfig({
  testDir: 'test/e2e/specs',
  globalSetup: './test/e2e/global-setup.ts',
  outputDir: 'test-results',
  // Ceilings for a loaded machine, not durations: a passing wait ends at its condition. At a load of
  // 29 on two cores the first prompt after an app's start (it loads pi-ai) took over 10 s to show.
  // The specs that shoot many screens mark themselves test.slow() (three times this), never a number.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: workers(),
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    trace: 'retain-on-failure',
    video: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'browser', metadata: { host: 'browser' } },
    // One at a time: two Electron apps at once were never tried (no binary on the machines that measured).
    { name: 'electron', metadata: { host: 'electron' }, workers: 1 },
  ],
});
