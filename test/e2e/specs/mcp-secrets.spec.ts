// MCP secrets in Settings → MCP (docs/mcp.md, "Secrets"): a VS Code mcp.json whose entry takes its
// token from a `"password": true` input is imported — the value asked for hidden — and the token is
// then shown masked under the server and in its entry, never in the page or in settings.json.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '../fixtures/app';
import { SCREENS } from '../fixtures/screens';
import { SettingsPage } from '../pages/settings-page';

const TOKEN = 'ghp_e2eSecretToken_4242';

test('a VS Code input is asked hidden on import, and the secret is shown masked only', async ({ app }) => {
  const page = app.page;
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.mcpSection.scrollIntoViewIfNeeded();
  const config = join(mkdtempSync(join(tmpdir(), 'resolute-e2e-mcp-')), 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      inputs: [{ type: 'promptString', id: 'gh', description: 'GitHub token', password: true }],
      servers: {
        github: {
          command: process.execPath,
          args: ['${workspaceFolder}'],
          env: { GH_TOKEN: '${input:gh}' },
          disabled: true,
        },
      },
    }),
  );
  await settings.mcpImportFile.setInputFiles(config);
  const field = settings.mcpImportInputs.getByLabel('GitHub token');
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill(TOKEN);
  for (const language of ['en', 'ja', 'ko'] as const) {
    await settings.setLanguage(language);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settings.mcpSection.screenshot({ path: `${SCREENS}/mcp-inputs-${language}-${scheme}.png` });
    }
  }
  await settings.setLanguage('en');
  await page.emulateMedia({ colorScheme: 'light' });
  await settings.mcpImportInputsSave.click();
  await expect(settings.mcpImportResult).toHaveText('Imported 1 server.');

  const row = settings.mcpRow('github');
  await expect(row.getByTestId('mcp-secrets')).toHaveText(/^GH_TOKEN=••••4242#[0-9a-f]{8}$/);
  await row.getByTestId('mcp-edit').click();
  await expect(settings.mcpFormEntry).toHaveValue(/"GH_TOKEN": "••••4242#[0-9a-f]{8}"/);
  await settings.mcpFormSave.click();
  await expect(settings.mcpFormEntry).toHaveCount(0);
  for (const language of ['en', 'ja', 'ko'] as const) {
    await settings.setLanguage(language);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settings.mcpSection.screenshot({ path: `${SCREENS}/mcp-secrets-${language}-${scheme}.png` });
    }
  }
  expect(await page.content()).not.toContain(TOKEN);
  const stored = readFileSync(join(app.dataDir, 'settings.json'), 'utf8');
  expect(stored).toContain('"GH_TOKEN": "(kept in the credential store)"');
  expect(stored).not.toContain(TOKEN);
});
