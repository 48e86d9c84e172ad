// The first real chat through the browser mode against the simulator: a streamed reply, and
// Stop in the middle of a slow stream keeping the partial reply and starting no retry.
import { SLOW_CHUNK_COUNT } from '../../../src/main/node/simulator/simulator-replies';
import { test, expect } from '../fixtures/app';
import { assistantTurns } from '../fixtures/history-db';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';

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
  // The cut-off reply is stored as aborted, and the chat shows exactly that text, no longer streaming.
  await expect.poll(() => assistantTurns(app.dataDir).at(-1)?.stop_reason).toBe('aborted');
  const stored = assistantTurns(app.dataDir).at(-1)!.text;
  expect(stored).toContain('Simulated reply');
  expect(stored).not.toContain(`(slow chunk ${SLOW_CHUNK_COUNT})`);
  await expect(chat.lastAssistant()).not.toHaveAttribute('data-streaming');
  await expect(chat.lastAssistant().locator('.bubble-text')).toHaveText(stored);
  expect((await app.requests()).length).toBe(1);
  const banner = new RetryBanner(app.page);
  await expect(banner.root).toBeHidden();
});
