// The person's own instructions, through the real UI against the simulator (docs/tools.md,
// "Instructions"): Settings → Agent's "System prompt" field changes the system message of the next
// request, as the simulator's request log shows, and replacing Resolute's own words keeps the facts.
import { test, expect, type SimRequest } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

const systemOf = (request: SimRequest) => String(request.messages.find((m) => m.role === 'system')?.content ?? '');

test('the System prompt field changes the next request', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  const field = app.page.getByLabel('System prompt', { exact: true });
  await field.fill('Always answer like a ship’s captain.');
  await field.blur();
  await expect(settings.saved).toBeVisible();
  await app.page.getByTestId('settings-system-prompt-mode').selectOption('replace');
  const chat = new ChatPage(app.page);
  await chat.open();
  await chat.prompt('ahoy');
  await chat.waitForTurnEnd();
  const system = systemOf((await app.requests()).at(-1)!);
  expect(system).toContain('Always answer like a ship’s captain.');
  expect(system).not.toContain('You are Resolute');
  expect(system).toContain('## Tools');
});
