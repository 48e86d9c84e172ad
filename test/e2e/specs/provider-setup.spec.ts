// Test connection that tells the truth (issue 30, "Provider setup"), through the real Settings UI:
// no key says to add one and leads to the key field, an empty OpenAI-compatible URL asks for it, a
// server that cannot be reached is named by its host, and a result clears when what it tested changes.
import { createServer } from 'node:net';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('no key: "Add an API key for Anthropic" with the way to the key field', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.provider.selectOption('anthropic');
  await expect(settings.saved).toContainText('Saved');
  await settings.testConnection.click();
  const result = settings.testConnectionResult;
  await expect(result).toContainText('Add an API key for Anthropic');
  await expect(result).not.toContainText('No API key for provider');
  await settings.testConnectionAddKey.click();
  await expect(settings.providerKeysHeading('anthropic')).toBeFocused();
  await expect(settings.keyInput('anthropic')).toBeVisible();
});

test('an empty OpenAI-compatible URL asks for it; an unreachable one names its host', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.provider.selectOption('openai-compatible');
  await expect(settings.baseUrl).toHaveValue('');
  await settings.testConnection.click();
  const result = settings.testConnectionResult;
  await expect(result).toContainText('Enter the server’s URL');
  const port = await closedPort();
  const field = settings.baseUrl;
  await field.fill(`http://127.0.0.1:${port}/v1`);
  await field.press('Enter');
  // The URL changed: the old answer is gone before a new test runs.
  await expect(result).toBeEmpty();
  await settings.testConnection.click();
  await expect(result).toContainText(`Could not reach 127.0.0.1:${port}`, { timeout: 30_000 });
  await expect(result).toContainText('check the URL');
  // A URL the settings refuse is not what was tested: the answer goes, though the saved URL stays.
  await field.fill('ftp://x');
  await field.press('Enter');
  await expect(result).toBeEmpty();
});

test('a "✓ Connected" result clears when the model changes', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.testConnection.click();
  const result = settings.testConnectionResult;
  await expect(result).toContainText('✓');
  const model = settings.model;
  await model.fill('resolute-sim-2');
  await model.press('Enter');
  await expect(result).toBeEmpty();
});

test('current default models, a picker that says what each model is, and the model kept per provider', async ({
  app,
}) => {
  const { page } = app;
  const settings = new SettingsPage(page);
  await settings.open();
  const model = settings.model;
  await settings.provider.selectOption('anthropic');
  await expect(model).toHaveValue('claude-opus-4-7');
  await expect(settings.modelFacts).toHaveText(
    'Claude Opus 4.7 · 1M context · $5 in / $25 out per M tokens · reads images · thinks',
  );
  // The list is newest first and says what each model is.
  const first = (await settings.modelListOptions()).first();
  await expect(first).toHaveAttribute('value', 'claude-opus-4-7');
  await expect(first).toHaveAttribute('label', /1M context · \$5 in/);
  await model.fill('claude-sonnet-4-6');
  await model.press('Enter');
  await expect(settings.saved).toContainText('Saved');
  for (const [provider, expected] of [
    ['openai', 'gpt-5.5'],
    ['google', 'gemini-2.5-flash'],
    ['openrouter', 'anthropic/claude-opus-4.7'],
  ] as const) {
    await settings.provider.selectOption(provider);
    await expect(model).toHaveValue(expected);
  }
  await settings.provider.selectOption('anthropic');
  await expect(model).toHaveValue('claude-sonnet-4-6');
  // The chat header names the provider beside its model.
  const chat = new ChatPage(page);
  await chat.open();
  await expect(chat.provider).toHaveText('Anthropic');
  await expect(chat.modelPicker).toHaveValue('claude-sonnet-4-6');
});
