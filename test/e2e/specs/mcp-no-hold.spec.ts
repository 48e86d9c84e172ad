// A server that never speaks MCP does not hold the person's message (docs/mcp.md, "Servers start
// in the background"): the message shows and is answered while the server is still starting, a
// second Enter while the first turn runs sends nothing (the text stays in the box), and the server
// is shown as failed within seconds, not after minutes of 30 s connect attempts.
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

test.use({
  appOptions: {
    // The first reply streams slowly, so the second Enter lands while the first turn runs.
    script: 'slow, ok',
    set: [`mcp.servers=${JSON.stringify({ silent: { command: '/bin/sh', args: ['-c', 'sleep 600'] } })}`],
  },
});

test('a starting server holds no prompt, and Enter twice sends once', async ({ app }) => {
  const page = app.page;
  const chat = new ChatPage(page);
  await chat.input.fill('first message');
  await chat.input.press('Enter');
  // At once, as a person who saw nothing happen would: held 3 s for the server, it went too.
  await chat.input.fill('second message');
  await chat.input.press('Enter');
  // The message shows and the turn can be stopped while the server has not answered at all. The
  // second Enter sent nothing: its words are back in the box (refused by the page while it knew the
  // turn ran, or by the main process when it came first).
  await expect(chat.userMessages.last()).toContainText('first message');
  await expect(chat.input).toHaveValue('second message');
  await expect.poll(async () => (await app.requests()).length).toBe(1);
  // Stopped rather than read to its end: the slow reply takes 8 s or more, longer on a busy machine.
  await chat.stop.click();
  await expect(chat.stop).toBeHidden();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.input).toHaveValue('second message');
  expect((await app.requests()).map((r) => r.lastUserText)).toEqual(['first message']);

  // A command that never answers `initialize` is failed in seconds (three 30 s attempts took ~2 min).
  await new SettingsPage(page).open();
  const silent = page.locator('[data-testid="mcp-row"][data-server="silent"]');
  await expect(silent.getByTestId('mcp-status')).toHaveText(/^Failed: .*initialize/, { timeout: 20_000 });
});
