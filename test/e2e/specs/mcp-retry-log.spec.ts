// Settings → MCP in the browser mode, for a server that fails at start (docs/mcp.md, "Failures"):
// its row says when the next attempt in the background is and offers "Retry now", which brings it
// up once it can start; "Show log" opens the end of its stderr log; a connected server-everything
// lists its resources and prompts, read-only. The failing servers are the tests' own
// (test/integration/fixtures/mcp-flaky-server.mjs). Screenshots of the rows in en/ja/ko, light and
// dark (axe-checked), go to test-results/screens.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { SCREENS } from '../fixtures/screens';
import { McpServerRow } from '../pages/mcp-servers';
import { SettingsPage } from '../pages/settings-page';

const FLAKY = join(import.meta.dirname, '..', '..', 'integration', 'fixtures', 'mcp-flaky-server.mjs');
const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const dir = mkdtempSync(join(tmpdir(), 'resolute-e2e-mcp-flaky-'));
const upFile = join(dir, 'late-is-up');
const server = (name: string, env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [FLAKY],
  env: { START_FILE: join(dir, `${name}-starts.txt`), FAIL_STARTS: '1000000', ...env },
});

test.use({
  appOptions: {
    set: [
      // One attempt per round and 60 s to the next: the rows stay failed while the test looks at them,
      // and no attempt in the background comes before Retry now (the test ends within 120 s).
      'retry.baseDelayMs=60000',
      'retry.policy={"connection":{"maxAttempts":1}}',
      `mcp.servers=${JSON.stringify({
        down: server('down'),
        late: server('late', { UP_FILE: upFile }),
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      })}`,
    ],
  },
});

test('a failed server: its next attempt, Retry now, and its log', async ({ app }) => {
  // Many screens, each checked by axe: three times the config's ceiling for a loaded machine.
  test.slow();
  const page = app.page;
  const settings = new SettingsPage(page);
  await settings.openMcp();
  const down = new McpServerRow(page, 'down');
  const late = new McpServerRow(page, 'late');
  for (const row of [down, late]) {
    await expect(row.status).toHaveText(/^Failed: .*closed/i, { timeout: 20_000 });
    await expect(row.nextAttempt).toHaveText(/^Next attempt at \d\d:\d\d:\d\d$/);
  }

  await down.showLog();
  await expect(down.logText).toContainText('flaky: failing start 1 on purpose');
  await expect(down.logText).toContainText(/--- .* starting .*mcp-flaky-server\.mjs/);
  await expect(down.logWhere).toContainText(join('logs', 'mcp', 'down.log'));

  const everything = new McpServerRow(page, 'everything');
  await expect(everything.status).toHaveText(/^Connected · \d+ tools$/, { timeout: 20_000 });
  await everything.showCatalog();
  await expect(everything.prompts).toContainText('simple-prompt()');
  await expect(everything.prompts).toContainText(/args-prompt\(\w+\*/);
  await expect(everything.resources).toContainText('demo://resource/static/document/');
  await expect(everything.catalog).toContainText('not offered to the model');

  for (const language of ['en', 'ja', 'ko'] as const) {
    await settings.setLanguage(language);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await down.root.screenshot({ path: `${SCREENS}/mcp-retry-log-${language}-${scheme}.png` });
      await everything.root.screenshot({ path: `${SCREENS}/mcp-catalog-${language}-${scheme}.png` });
      expect(await axeViolations(page)).toEqual([]);
    }
  }
  await settings.setLanguage('en');
  await page.emulateMedia({ colorScheme: 'light' });

  // The program can start now: Retry now brings it up long before its next attempt would.
  writeFileSync(upFile, '');
  await late.retryNow.click();
  // The config's ceiling, not 5 s: a node process's start took longer at a load of 20 (Node 24 run).
  // What came first is in the log below: start 2 is Retry now's (3 when a background attempt was due).
  await expect(late.status).toHaveText('Connected · 1 tool');
  await expect(late.retryNow).toHaveCount(0);
  await late.showLog();
  // Start 2 (or 3, when the screenshots outlasted the first background attempt).
  await expect(late.logText).toContainText(/flaky: serving on start [23]$/);

  // Refresh reads the log again: another start of `down` adds its lines.
  const failures = async () => ((await down.logText.textContent()) ?? '').split('failing start').length;
  // On a slow run a background attempt may be starting as the log is read: read until it has failed.
  await expect
    .poll(async () => {
      await down.logRefresh.click();
      return (await down.logText.textContent()) ?? '';
    })
    .toMatch(/next attempt in \d+ ms$/);
  const before = await failures();
  const planned = /\d\d:\d\d:\d\d/.exec((await down.nextAttempt.textContent()) ?? '')![0];
  await down.retryNow.click();
  // The row of the attempt just made, not the one from before the click: failed again, with a new
  // next attempt, 60 s from now — the one planned at start is as many seconds earlier as the test ran.
  await expect(down.nextAttempt).toHaveText(new RegExp(`^Next attempt at (?!${planned}$)\\d\\d:\\d\\d:\\d\\d$`));
  await expect(down.status).toHaveText(/^Failed/);
  await expect
    .poll(async () => {
      await down.logRefresh.click();
      return failures();
    })
    .toBe(before + 1);
});
