// Settings → MCP in the browser mode (docs/mcp.md): add server-everything (a real reference
// server) and see it connect with its tool count, a server that cannot start failed with its
// reason, the import of a claude_desktop_config.json; then an MCP tool call approved (its card
// shows the result), one tool marked to run without asking (its image shows), and one denied.
// Screenshots of the section in en/ja/ko, light and dark (axe-checked), go to test-results/screens.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '../fixtures/app';
import { EVERYTHING } from '../fixtures/mcp-everything';
import { axeViolations } from '../fixtures/axe';
import { SCREENS } from '../fixtures/screens';
import { ChatPage } from '../pages/chat-page';
import { McpServerRow } from '../pages/mcp-servers';
import { SettingsPage } from '../pages/settings-page';
import { ToolsPage } from '../pages/tools-page';

test('add, fail, import, approve and deny: MCP servers from Settings to the chat', async ({ app }) => {
  // Many screens, each checked by axe: three times the config's ceiling for a loaded machine.
  test.slow();
  const page = app.page;
  const settings = new SettingsPage(page);
  const section = await settings.openMcp();
  await expect(section).toContainText('No MCP servers yet.');

  await settings.mcpAdd.click();
  await settings.mcpFormName.fill('everything');
  await settings.mcpFormEntry.fill(JSON.stringify({ command: process.execPath, args: [EVERYTHING] }));
  await settings.mcpFormSave.click();
  const everything = new McpServerRow(page, 'everything');
  await expect(everything.status).toHaveText(/^Connected · \d+ tools$/, { timeout: 20_000 });

  await settings.mcpAdd.click();
  await settings.mcpFormName.fill('bad name!');
  await settings.mcpFormSave.click();
  await expect(settings.mcpFormError).toHaveText('A name is 1–32 letters, digits, _ or -.');
  await settings.mcpFormName.fill('broken');
  await settings.mcpFormEntry.fill('{"command": "/nonexistent/mcp-server"}');
  await settings.mcpFormSave.click();
  const broken = new McpServerRow(page, 'broken');
  await expect(broken.status).toHaveText(/^Failed: .*ENOENT/, { timeout: 20_000 });
  await expect(broken.root).toContainText('logs/mcp/broken.log');

  const config = join(mkdtempSync(join(tmpdir(), 'resolute-e2e-mcp-')), 'claude_desktop_config.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { imported: { command: process.execPath, args: [EVERYTHING], disabled: true } } }),
  );
  await settings.mcpImportFile.setInputFiles(config);
  await expect(settings.mcpImportResult).toHaveText('Imported 1 server.');
  const imported = new McpServerRow(page, 'imported');
  await expect(imported.status).toHaveText('Off');

  for (const language of ['en', 'ja', 'ko'] as const) {
    await settings.setLanguage(language);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await section.screenshot({ path: `${SCREENS}/mcp-settings-${language}-${scheme}.png` });
      expect(await axeViolations(page)).toEqual([]);
    }
  }
  await settings.setLanguage('en');
  await page.emulateMedia({ colorScheme: 'light' });

  // One tool of the server marked to run without asking; the others still ask.
  await everything.showTools();
  await everything.allowWithoutAsking('get-tiny-image').check();
  await expect(settings.saved).toContainText('Saved');

  const chat = new ChatPage(page);
  const tools = new ToolsPage(page);
  await chat.open();
  await app.setScript('tool:mcp__everything__echo:{"message":"hi from MCP"}, ok');
  await chat.prompt('Echo through MCP');
  await expect(tools.approval).toBeVisible();
  await expect(tools.approval).toContainText('"message": "hi from MCP"');
  // The switch that stops the asking is in Settings → MCP servers, and the card says so.
  await expect(tools.approval).toContainText('Settings → MCP servers');
  await tools.allowOnce.click();
  const card = tools.card('mcp__everything__echo');
  await expect(card).toContainText('everything · echo');
  await tools.open(card);
  await expect(tools.output(card)).toHaveText('Echo: hi from MCP');

  await app.setScript('tool:mcp__everything__get-tiny-image:{}, ok');
  await chat.prompt('Show the image');
  const imageCard = tools.card('mcp__everything__get-tiny-image');
  await tools.open(imageCard);
  await expect(tools.image(imageCard)).toBeVisible();
  await expect(tools.approval).toBeHidden();
  await imageCard.screenshot({ path: `${SCREENS}/mcp-image-card-en-light.png` });

  await app.setScript('tool:mcp__everything__get-sum:{"a":1,"b":2}, ok');
  await chat.prompt('Add them');
  await tools.deny.click();
  await expect(tools.card('mcp__everything__get-sum')).toBeVisible();
  await expect.poll(async () => (await app.requests()).at(-1)?.lastToolResult).toMatch(/user denied this tool call/);
});
