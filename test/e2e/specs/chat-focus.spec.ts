// Where the focus goes in the chat (docs/architecture.md, "The chat in the window"): a chat opened
// again while it waits for an approval gives the focus to the approval card, so A answers it and
// types nothing into the message box; on page load the message box has it.
import { test, expect } from '../fixtures/app';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { ToolsPage } from '../pages/tools-page';

const write = `tool:write:${JSON.stringify({ path: 'a.txt', content: 'A\n' })}`;

test.describe('a chat that waits for an approval', () => {
  test.use({ appOptions: { script: `ok, ${write}, ok` } });

  test('opened again, its card has the focus and A allows', async ({ app }) => {
    const page = app.page;
    const chat = new ChatPage(page);
    const tools = new ToolsPage(page);
    await chat.prompt('another chat');
    await chat.waitForTurnEnd();
    const shell = new AppShell(page);
    await shell.newChat.click();
    await chat.prompt('write a.txt');
    await expect(tools.allowOnce).toBeFocused();

    await shell.session('another chat').click();
    await expect(chat.title).toHaveText('another chat');
    await shell.session('write a.txt').click();
    await expect(chat.title).toHaveText('write a.txt');
    await expect(tools.allowOnce).toBeFocused();
    await page.keyboard.press('a');
    await expect(tools.approval).toBeHidden();
    await expect(chat.input).toHaveValue('');
    await expect(tools.card('write')).toHaveAttribute('data-status', 'done');
  });
});

test('on page load the message box has the focus: typing goes there, not to the page body', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await expect(chat.input).toBeFocused();
  await app.page.keyboard.type('hello');
  await expect(chat.input).toHaveValue('hello');
  await app.page.reload();
  await expect(chat.input).toBeFocused();
});
