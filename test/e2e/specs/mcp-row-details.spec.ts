// Settings → MCP, what a server's row tells (docs/mcp.md; issue 45, item 19): each tool with what it
// does, an import that had to rename a server says so, and Remove asks before the entry goes.
// Against server-everything, a real reference server. Screens in en/ja, light and dark (axe-checked).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '../fixtures/app';
import { EVERYTHING } from '../fixtures/mcp-everything';
import { axeViolations } from '../fixtures/axe';
import { SCREENS } from '../fixtures/screens';
import { McpServerRow } from '../pages/mcp-servers';
import { SettingsPage } from '../pages/settings-page';

test('tools with their descriptions, a renamed import said, and Remove that asks first', async ({ app }) => {
  test.slow();
  const page = app.page;
  const settings = new SettingsPage(page);
  await settings.openMcp();
  const config = join(mkdtempSync(join(tmpdir(), 'resolute-e2e-mcp-')), 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { 'bad name!': { command: process.execPath, args: [EVERYTHING] } } }),
  );
  await settings.mcpImportFile.setInputFiles(config);
  await expect(settings.mcpImportResult).toHaveText(
    'Imported 1 server. Renamed to fit a server name (letters, digits, _ and -): “bad name!” → bad_name_',
  );

  const row = new McpServerRow(page, 'bad_name_');
  await expect(row.status).toHaveText(/^Connected · \d+ tools$/, { timeout: 20_000 });
  await row.showTools();
  await expect(row.tools.locator('li', { hasText: 'echo' }).getByTestId('mcp-tool-description')).toHaveText(/echo/i);

  await row.remove.click();
  await expect(row.removeQuestion).toHaveText(
    'Remove bad_name_? Its entry and its “run without asking” choices go with it.',
  );
  await expect(row.removeKeep).toBeFocused();
  for (const language of ['en', 'ja'] as const) {
    await settings.setLanguage(language);
    await settings.openMcp();
    await row.root.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page)).toEqual([]);
      await row.root.screenshot({ path: `${SCREENS}/mcp-row-details-${language}-${scheme}.png` });
    }
  }
  await settings.setLanguage('en');
  await settings.openMcp();
  await row.removeKeep.click();
  await expect(row.removeQuestion).toHaveCount(0);
  await expect(row.root).toBeVisible();
  await row.remove.click();
  await row.removeYes.click();
  await expect(row.root).toHaveCount(0);
});
