// Attachments in the browser mode against the simulator: attach by the button, by a drop onto the
// chat and by pasting an image; the chips, the thumbnail in the sent message and after a reload;
// the simulator's reply naming what it got; a refused file's message; the History detail and a
// Markdown export with the image; screenshots in en/ja/ko, light and dark.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { EVERY_LANGUAGE_AND_SCHEME, SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { SettingsPage } from '../pages/settings-page';

// A 1×1 PNG, 70 bytes.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');

/**
 * Drop or paste files into the page: a DataTransfer built in the page, dispatched on `selector`.
 * Written as page-side source (the test side has no DOM types).
 */
const DISPATCH_FILES = `({ selector, kind, files }) => {
  const transfer = new DataTransfer();
  for (const file of files) {
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], file.name, { type: file.type }));
  }
  const target = document.querySelector(selector);
  if (kind === 'paste') {
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    return;
  }
  for (const type of ['dragenter', 'dragover', 'drop'])
    target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
}`;

async function dispatchFiles(
  page: Page,
  selector: string,
  kind: 'drop' | 'paste',
  files: { name: string; type: string; base64: string }[],
): Promise<void> {
  await page.evaluate(`(${DISPATCH_FILES})(${JSON.stringify({ selector, kind, files })})`);
}

test('an image by the button: chip, thumbnail in the sent message, the reply names it, after a reload too', async ({
  app,
}) => {
  const chat = new ChatPage(app.page);
  await chat.attachInput.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  const chip = chat.attachmentChips;
  await expect(chip).toContainText('dot.png');
  await expect(chip).toContainText('70 bytes');
  await expect(chat.attachmentImage('Image dot.png')).toBeVisible();
  // Text may be empty with an attachment: Enter sends.
  await chat.input.press('Enter');
  await expect(chat.lastAssistant()).toContainText('I received 1 image (image/png, 70 bytes)');
  await expect(chat.lastPrompt().sentImage('Image dot.png')).toHaveAttribute(
    'src',
    `data:image/png;base64,${PNG_BASE64}`,
  );
  await expect(chat.pendingAttachments).toBeHidden();
  const [request] = await app.requests();
  expect(JSON.stringify(request.messages)).toContain(`data:image/png;base64,${PNG_BASE64}`);

  await app.page.reload();
  await expect(new ChatPage(app.page).lastPrompt().image('Image dot.png')).toBeVisible();
});

test('a file dropped onto the chat and an image pasted go together; one can be removed first', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await dispatchFiles(app.page, '.chat', 'drop', [
    { name: 'notes.md', type: 'text/markdown', base64: Buffer.from('# Notes\n<b>not html</b>').toString('base64') },
    { name: 'extra.txt', type: 'text/plain', base64: Buffer.from('remove me').toString('base64') },
  ]);
  await expect(chat.attachmentChips).toHaveCount(2);
  await chat.removeAttachment('extra.txt').click();
  await dispatchFiles(app.page, '[data-testid="chat-input"]', 'paste', [
    { name: 'image.png', type: 'image/png', base64: PNG_BASE64 },
  ]);
  await expect(chat.attachmentChips).toHaveCount(2);
  await chat.input.fill('Here you go');
  await chat.input.press('Enter');
  await expect(chat.lastAssistant()).toContainText(
    'I received "Here you go" and 1 image (image/png, 70 bytes) and 1 file ("notes.md")',
  );
  // The file's text never became markup.
  await expect(chat.transcriptBold).toHaveCount(0);
  await expect(chat.lastPrompt().sentAttachments).toHaveCount(2);
});

test('a file of a type that cannot be used is refused in the composer, nothing sent, the text kept', async ({
  app,
}) => {
  const chat = new ChatPage(app.page);
  await chat.input.fill('Listen to this');
  await chat.attachInput.setInputFiles({ name: 'song.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3') });
  await expect(chat.attachmentRefusal).toHaveText(
    '“song.mp3” cannot be used: attach images, text or code files, or PDFs.',
  );
  await expect(chat.send).toBeDisabled();
  await chat.input.press('Enter');
  expect(await app.requests()).toHaveLength(0);
  await chat.removeAttachment('song.mp3').click();
  await expect(chat.attachmentRefusal).toBeHidden();
  await expect(chat.input).toHaveValue('Listen to this');
});

test('a damaged PDF is refused by the main process; its words show in the composer', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.attachInput.setInputFiles({
    name: 'torn.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<<'),
  });
  await chat.input.fill('Read this');
  await chat.input.press('Enter');
  await expect(chat.attachmentRefusal).toContainText('"torn.pdf" cannot be used: the PDF is damaged');
  expect(await app.requests()).toHaveLength(0);
  await expect(chat.attachmentChips).toContainText('torn.pdf');
  await expect(chat.input).toHaveValue('Read this');
});

test.describe('a model that reads text only', () => {
  test.use({ appOptions: { set: ['provider.model=resolute-sim-2'] } });

  test('an image is refused before sending; "Send without the images" sends the rest', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.input.fill('Compare these');
    await chat.attachInput.setInputFiles([
      { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
      { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes') },
    ]);
    await expect(chat.attachmentRefusal).toContainText(
      'The current model reads text only, so the image “dot.png” cannot be sent to it.',
    );
    await expect(chat.send).toBeDisabled();
    await chat.sendWithoutImages.click();
    await expect(chat.lastAssistant()).toContainText('I received "Compare these" and 1 file ("notes.md")');
    await expect(chat.attachmentChips).toHaveCount(0);
    await expect(chat.input).toHaveValue('');
  });
});

test('the History detail shows the image, and the Markdown export carries it', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.attachInput.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  await chat.input.fill('Keep this picture');
  await chat.input.press('Enter');
  await chat.waitForTurnEnd();
  const history = new HistoryPage(app.page);
  await history.open();
  await history.sessionRowLink().click();
  await expect(history.detailImage('Image dot.png')).toBeVisible();
  const download = app.page.waitForEvent('download');
  await history.exportMarkdown.click();
  const markdown = readFileSync((await (await download).path())!, 'utf8');
  expect(markdown).toContain(`![dot.png](data:image/png;base64,${PNG_BASE64})`);
});

test.describe('screenshots of attachments', () => {
  for (const [language, scheme] of EVERY_LANGUAGE_AND_SCHEME) {
    test(`chips, a sent image and a refusal in ${language} (${scheme})`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      const settings = new SettingsPage(app.page);
      await settings.open();
      await settings.setLanguage(language);
      const chat = new ChatPage(app.page);
      await chat.open();
      const input = chat.attachInput;
      await input.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
      await chat.input.fill('What is in this picture?');
      await chat.input.press('Enter');
      await chat.waitForTurnEnd();
      await input.setInputFiles([
        { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes') },
        { name: 'song.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3') },
      ]);
      await expect(chat.attachmentRefusal).toBeVisible();
      await app.page.screenshot({ path: `${SCREENS}/attachments-${language}-${scheme}.png` });
    });
  }
});

test.describe('a message held for a rate limit', () => {
  test.use({ appOptions: { script: '429:120' } });

  test('Stop gives back its text and its chips, unsent', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('first');
    await chat.erroredCard().expectStatus('failed');
    const shell = new AppShell(app.page);
    await shell.newChat.click();
    await chat.attachInput.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await chat.input.fill('the held picture');
    await chat.send.click();
    await expect(chat.pacingNotice).toBeVisible();
    await expect(chat.pendingAttachments).toHaveCount(0);
    await chat.stop.click();
    await expect(chat.input).toHaveValue('the held picture');
    const chip = chat.attachmentChips;
    await expect(chip).toHaveCount(1);
    await expect(chip).toContainText('dot.png');
    await expect(chip).toContainText('70 bytes');
    await expect(chat.attachmentImage('Image dot.png')).toBeVisible();
    await app.page.screenshot({ path: `${SCREENS}/held-attachments-returned.png` });
    // Only the first prompt reached the server: the held one was never sent.
    expect((await app.requests()).map((r) => r.lastUserText)).toEqual(['first']);
  });
});

test('the History list shows each session’s tokens and cost (ja)', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.setLanguage('ja');
  const chat = new ChatPage(app.page);
  await chat.open();
  await chat.attachInput.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  await chat.input.fill('What is in this picture?');
  await chat.input.press('Enter');
  await chat.waitForTurnEnd();
  const history = new HistoryPage(app.page);
  await history.open();
  const usage = history.sessionUsage.first();
  await expect(usage).toHaveText(/^\d+ トークン · 費用不明$/);
  await app.page.screenshot({ path: `${SCREENS}/history-usage-ja.png` });
});
