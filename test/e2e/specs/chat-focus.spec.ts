// Where the focus goes in the chat (docs/architecture.md, "The chat in the window"): a chat opened
// again while it waits for an approval gives the focus to the approval card, so A answers it and
// types nothing into the message box; on page load the message box has it.
import { test, expect } from '../fixtures/app';
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
    await page.getByTestId('new-chat').click();
    await chat.prompt('write a.txt');
    await expect(tools.allowOnce).toBeFocused();

    await page.getByTestId('sidebar-session').filter({ hasText: 'another chat' }).click();
    await expect(page.getByTestId('chat-title')).toHaveText('another chat');
    await page.getByTestId('sidebar-session').filter({ hasText: 'write a.txt' }).click();
    await expect(page.getByTestId('chat-title')).toHaveText('write a.txt');
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
