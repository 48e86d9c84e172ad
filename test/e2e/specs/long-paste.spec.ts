// A long paste in the composer (docs/attachments.md, "In the composer"): pasted for real through the
// clipboard (Ctrl+V), it waits as a text file and goes as one; past a file's cap, or typed past the
// message's own cap, the composer says so in words before anything is sent — never the contract's
// raw "Too big" from the main process.
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';

/** Puts `text` on the clipboard and pastes it into the message box with the keyboard. */
async function paste(page: Page, chat: ChatPage, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The test side has no DOM types: reach the page's clipboard through globalThis.
  await page.evaluate(
    (value) =>
      (
        globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }
      ).navigator.clipboard.writeText(value),
    text,
  );
  await chat.input.focus();
  await page.keyboard.press('ControlOrMeta+V');
}

test('a 300,000-character paste waits as a text file and goes with the message as one', async ({ app }) => {
  const chat = new ChatPage(app.page);
  const long = 'a line of pasted log output\n'.repeat(300_000 / 28);
  await paste(app.page, chat, long);
  await expect(chat.attachmentChips).toContainText('pasted-text.txt');
  await expect(chat.input).toHaveValue('');
  await chat.input.fill('What does this log say?');
  await chat.input.press('Enter');
  await expect(chat.lastAssistant()).toContainText(
    'I received "What does this log say?" and 1 file ("pasted-text.txt")',
  );
  const [request] = await app.requests();
  expect(JSON.stringify(request.messages)).toContain('Attached file \\"pasted-text.txt\\"');
  await expect(chat.attachmentRefusal).toBeHidden();
});

test('a short paste stays words in the message box', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await paste(app.page, chat, 'short words');
  await expect(chat.input).toHaveValue('short words');
  await expect(chat.attachmentChips).toHaveCount(0);
});

test('a 541,000-character paste is said to be too long before anything is sent; nothing is added', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await paste(app.page, chat, 'x'.repeat(541_000));
  await expect(chat.attachmentRefusal).toHaveText(
    'The pasted text is 541,000 characters long; even as a file, one message can carry at most 400,000. Nothing was added.',
  );
  await expect(chat.input).toHaveValue('');
  await expect(chat.attachmentChips).toHaveCount(0);
  await chat.input.fill('still here');
  await expect(chat.attachmentRefusal).toBeHidden();
});

test('words past the message cap are said in words, and Send waits', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.input.fill('y'.repeat(200_001));
  await expect(chat.attachmentRefusal).toHaveText(
    'The message is 200,001 characters long; at most 200,000 can be sent as words. Cut it and paste it back: a long paste goes as a file.',
  );
  await expect(chat.send).toBeDisabled();
  await chat.input.press('Enter');
  await expect(chat.input).toHaveValue('y'.repeat(200_001));
  expect(await app.requests()).toHaveLength(0);
});
