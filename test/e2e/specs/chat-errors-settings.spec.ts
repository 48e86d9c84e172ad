// The chat people would choose, part 2 — honest error cards and real provider setup, through the
// real UI against the simulator: a recovered chain is a quiet note without a badge, a 401 is an
// Authentication card whose "Check your API key" lands on that provider's keys, Test connection
// shows the classified answer, a new provider starts on its default model, settings errors use
// the field's label, and the same fault script entered again starts over.
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

test.describe('recovering after one failure', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503,ok' } });

  test('a recovered chain shows a quiet note, no Error card and no sidebar badge', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('wobble then answer');
    await expect(chat.lastAssistant()).toContainText('wobble then answer');
    const note = app.page.getByTestId('recovered-note');
    await expect(note).toContainText('Recovered after 1 retry');
    await expect(chat.erroredCards).toHaveCount(0);
    await expect(app.page.getByTestId('sidebar-session')).toHaveCount(1);
    await expect(app.page.getByTestId('sidebar-errored-badge')).toHaveCount(0);
    await note.locator('summary').click();
    const success = note.locator('[data-action="success"]');
    await expect(success).toContainText('Retry 1');
    await expect(success).toContainText('Succeeded');
    await expect(success.locator('.badge')).toHaveCount(0);
  });
});

test('401 from an OpenAI-compatible server: an Authentication card whose link opens that provider keys', async ({
  app,
}) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.useOpenAiCompatible(app.simulatorUrl);
  // A new provider starts on its own default model.
  await expect(app.page.getByTestId('settings-model')).toHaveValue('default');
  await app.setScript('auth');
  await app.page.getByTestId('nav-chat').click();
  const chat = new ChatPage(app.page);
  await chat.prompt('who am I');
  const card = chat.erroredCards.last();
  await expect(card.getByTestId('errored-category')).toHaveText('Authentication');
  await expect(card).toContainText('Not retried: this kind of error stops at once');
  await card.getByTestId('check-api-key').click();
  const heading = app.page.getByTestId('provider-openai-compatible').getByRole('heading');
  await expect(heading).toBeFocused();
  await expect(app.page.getByTestId('api-key-input-openai-compatible')).toBeVisible();
});

test('Test connection sends one request through the real path and shows the classified result', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await app.page.getByTestId('test-connection').click();
  const result = app.page.getByTestId('test-connection-result');
  await expect(result).toContainText('Connected: resolute-sim-1 answered in');
  await app.setScript('auth');
  await app.page.getByTestId('test-connection').click();
  await expect(result).toHaveAttribute('data-category', 'auth');
  await expect(result).toContainText('Authentication —');
  expect((await app.requests()).map((r) => r.step)).toEqual(['ok', 'auth']);
  // The simulator takes no key, so it offers no key field.
  await expect(app.page.getByTestId('api-key-input-simulator')).toHaveCount(0);
  await expect(app.page.getByTestId('provider-simulator')).toContainText('The simulator needs no key.');
});

test('a refused setting names the field by its label, and the base URL takes http(s) only', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await app.page.getByTestId('settings-provider').selectOption('openai-compatible');
  const baseUrl = app.page.getByTestId('settings-base-url');
  await baseUrl.fill('ftp://example.com/v1');
  await baseUrl.press('Enter');
  await expect(app.page.getByTestId('settings-base-url-error')).toHaveText(
    'Base URL: must be an http:// or https:// URL',
  );
});

test('entering the same fault script again starts it over from its first step', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  const script = app.page.getByTestId('settings-simulator-script');
  await script.fill('503,ok');
  await script.press('Enter');
  await expect(app.page.getByTestId('settings-saved')).toContainText('Saved');
  await app.page.getByTestId('test-connection').click();
  await expect(app.page.getByTestId('test-connection-result')).toHaveAttribute('data-category', 'server_error');
  await script.press('Enter');
  await app.page.getByTestId('test-connection').click();
  await expect(app.page.getByTestId('test-connection-result')).toContainText('Server error');
  // Without the re-arm the second request would have had the script's next step, `ok`.
  expect((await app.requests()).map((r) => r.step)).toEqual(['503', '503']);
});

test('the model picker in the chat header sets the model the next request uses, free text allowed', async ({ app }) => {
  const picker = app.page.getByTestId('model-picker');
  await expect(picker).toHaveValue('resolute-sim-1');
  await picker.fill('resolute-sim-2');
  await picker.press('Enter');
  const chat = new ChatPage(app.page);
  await chat.prompt('which model');
  await expect(chat.lastAssistant()).toContainText('which model');
  expect((await app.requests()).map((r) => r.model)).toEqual(['resolute-sim-2']);
  await expect(picker).toHaveValue('resolute-sim-2');
  await new SettingsPage(app.page).open();
  await expect(app.page.getByTestId('settings-model')).toHaveValue('resolute-sim-2');
});
