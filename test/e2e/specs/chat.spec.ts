// The first real chat through the browser mode against the simulator: a streamed reply, and
// Stop in the middle of a slow stream keeping the partial reply and starting no retry.
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';

test('a prompt streams the simulator reply into the chat', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await expect(app.page.getByText('Simulator', { exact: false }).first()).toBeVisible();
  await chat.prompt('Hello from Playwright');
  await expect(chat.lastAssistant()).toContainText('Simulated reply: I received "Hello from Playwright"');
  expect((await app.requests()).length).toBe(1);
});

test('Stop in the middle of a streaming reply stops it and keeps the partial text', async ({ app }) => {
  await app.setScript('slow');
  const chat = new ChatPage(app.page);
  await chat.prompt('Tell me a long story');
  await expect(chat.stop).toBeVisible();
  await expect(chat.lastAssistant()).toContainText('Simulated', { timeout: 10_000 });
  await chat.stop.click();
  await expect(chat.stop).toBeHidden();
  const partial = (await chat.lastAssistant().textContent()) ?? '';
  await app.page.waitForTimeout(600);
  expect((await chat.lastAssistant().textContent()) ?? '').toBe(partial);
  expect((await app.requests()).length).toBe(1);
  await expect(app.page.getByTestId('retry-banner')).toBeHidden();
});
