// One draft per chat (docs/architecture.md, "Drafts"): what is typed and attached in a chat stays
// with it across a switch to another chat, Settings or History and back, and a reload; the
// failed message put back after an error, and the card's Retry, leave words typed since alone.
import { test, expect } from '../fixtures/app';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';

const textFile = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('a note to send later\n') };

test.describe('drafts across chats, views and a reload', () => {
  test.use({ appOptions: { script: 'ok, ok' } });

  test('each chat keeps its own words and files', async ({ app }) => {
    const page = app.page;
    const chat = new ChatPage(page);
    const shell = new AppShell(page);
    const chips = chat.pendingChips;
    await chat.prompt('chat A');
    await chat.waitForTurnEnd();
    await chat.input.fill('draft in A');
    await chat.attachInput.setInputFiles(textFile);
    await expect(chips).toHaveText([/notes\.txt/]);

    await shell.newChat.click();
    await expect(chat.input).toHaveValue('');
    await expect(chips).toHaveCount(0);
    await chat.prompt('chat B');
    await chat.waitForTurnEnd();
    await chat.input.fill('draft in B');

    await shell.session('chat A').click();
    await expect(chat.title).toHaveText('chat A');
    await expect(chat.input).toHaveValue('draft in A');
    await expect(chips).toHaveText([/notes\.txt/]);

    for (const nav of [shell.navSettings, shell.navHistory]) {
      await nav.click();
      await shell.navChat.click();
      await expect(chat.input).toHaveValue('draft in A');
      await expect(chips).toHaveText([/notes\.txt/]);
    }

    await page.reload();
    await expect(chat.title).toHaveText('chat A');
    await expect(chat.input).toHaveValue('draft in A');
    await expect(chips).toHaveText([/notes\.txt/]);
    await shell.session('chat B').click();
    await expect(chat.title).toHaveText('chat B');
    await expect(chat.input).toHaveValue('draft in B');
    await expect(chips).toHaveCount(0);
  });
});

test.describe('a refill after an error', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=1500'], script: '503, auth, ok' } });

  test('words typed while it failed stay, through a view switch and the card’s Retry', async ({ app }) => {
    const page = app.page;
    const chat = new ChatPage(page);
    await chat.prompt('the question');
    // Typed while the retry waits; the chain then fails for good and offers the question back.
    await expect(new RetryBanner(page).root).toBeVisible();
    await chat.input.fill('my next thought');
    await expect(chat.erroredCards.last()).toHaveAttribute('data-status', 'failed');
    await expect(chat.input).toHaveValue('my next thought');

    const shell = new AppShell(page);
    await shell.navSettings.click();
    await shell.navChat.click();
    await expect(chat.input).toHaveValue('my next thought');

    await chat.erroredCard().retry.click();
    await chat.waitForTurnEnd();
    await expect(chat.input).toHaveValue('my next thought');
  });
});
