// Sessions and the keyboard, through the real UI: rename and delete from the sidebar (stored in
// SQLite), New chat while a retry waits (the chat left waits on, shown in the sidebar), the session list as
// one Tab stop, and focus that never falls to the page body — after Cancel and Retry now, after
// New chat (button and Ctrl+N), on a history session's heading, through the skip link, Ctrl+K and
// Shift+Esc, and back to the composer after Allow and Regenerate.
import { test, expect } from '../fixtures/app';
import { sessionTitles } from '../fixtures/history-db';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import { ToolsPage } from '../pages/tools-page';

/** A whole exchange: switching chats is refused until its turn has ended, so wait for that, not for the first words. */
async function chatWith(chat: ChatPage, text: string): Promise<void> {
  await chat.prompt(text);
  await expect(chat.lastAssistant()).toContainText(text);
  await chat.waitForTurnEnd();
}

test('rename (F2) and delete (with a confirmation) from the sidebar', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chatWith(chat, 'a chat to rename and then to delete');
  const shell = new AppShell(app.page);
  const row = shell.sessions;
  await row.focus();
  await app.page.keyboard.press('F2');
  const input = shell.renameInput;
  await expect(input).toBeFocused();
  await input.fill('My renamed chat');
  await input.press('Enter');
  await expect(row).toHaveText('My renamed chat');
  await expect(row).toBeFocused();
  await expect(chat.title).toHaveText('My renamed chat');
  expect(sessionTitles(app.dataDir)).toEqual(['My renamed chat']);

  await app.page.keyboard.press('Delete');
  await expect(shell.confirmDialog).toContainText('“My renamed chat” and its turns will be deleted');
  await shell.confirmOk.click();
  await expect(row).toHaveCount(0);
  expect(sessionTitles(app.dataDir)).toEqual([]);
  await expect(chat.input).toBeFocused();
});

test('a long first message makes a title cut at a word, with an ellipsis', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.prompt('Why do retries need a decision table when every provider sends different errors anyway?');
  await expect(chat.lastAssistant()).toContainText('Simulated reply');
  const shell = new AppShell(app.page);
  await expect(shell.sessions).toHaveText('Why do retries need a decision table when every provider…');
});

test.describe('while a retry waits', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=20000', 'retry.maxDelayMs=600000'], script: '503*' } });

  test('New chat goes ahead (the chat left waits on in the sidebar); opened again, its banner is back', async ({
    app,
  }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('first chat');
    await expect(banner.root).toContainText('Retrying (1/3)');
    const shell = new AppShell(app.page);
    await shell.newChat.click();
    await expect(chat.input).toBeFocused();
    await expect(chat.userMessages).toHaveCount(0);
    await expect(banner.root).toBeHidden();
    const left = shell.session('first chat');
    await expect(shell.activityOf(left)).toContainText(/Retrying in \d+ s/);
    await left.click();
    await expect(chat.title).toHaveText('first chat');
    await expect(banner.root).toContainText('Retrying (1/3)');
    await banner.cancel.click();
    await expect(banner.root).toContainText('Retry cancelled');
  });

  test('focus goes to the composer after Cancel and after Retry now', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('cancel then retry');
    await banner.cancel.click();
    await expect(banner.root).toContainText('Retry cancelled');
    await expect(chat.input).toBeFocused();
    await app.setScript('503,ok');
    await chat.input.fill('now retry now');
    await chat.send.click();
    await banner.retryNow.click();
    await expect(chat.input).toBeFocused();
    await expect(chat.lastAssistant()).toContainText('now retry now');
  });
});

test('New chat, by button or Ctrl+N, focuses the composer', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chatWith(chat, 'one');
  const shell = new AppShell(app.page);
  await shell.newChat.click();
  await expect(chat.input).toBeFocused();
  await expect(chat.userMessages).toHaveCount(0);
  await chatWith(chat, 'two');
  const settings = new SettingsPage(app.page);
  await settings.open();
  await app.page.keyboard.press('Control+n');
  await expect(chat.input).toBeFocused();
  await expect(chat.userMessages).toHaveCount(0);
  await expect(shell.sessions).toHaveCount(2);
});

test('opening a session in History focuses its heading; Back returns to the search box', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chatWith(chat, 'open me in history');
  const history = new HistoryPage(app.page);
  await history.open();
  await history.sessionLinks.click();
  await expect(history.detailTitle).toBeFocused();
  await history.back.click();
  await expect(history.search).toBeFocused();
});

test('the skip link, Ctrl+K and Shift+Esc move focus where they say', async ({ app }) => {
  const chat = new ChatPage(app.page);
  // The page opens with the focus in the message box; the skip link is the first stop from the top.
  await expect(chat.input).toBeFocused();
  await app.page.evaluate(
    `{ document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex'); }`,
  );
  await app.page.keyboard.press('Tab');
  const shell = new AppShell(app.page);
  const skip = shell.skipLink;
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await app.page.keyboard.press('Enter');
  await expect(shell.main).toBeFocused();
  await app.page.keyboard.press('Control+k');
  const history = new HistoryPage(app.page);
  await expect(history.search).toBeFocused();
  await app.page.keyboard.press('Shift+Escape');
  await expect(chat.input).toBeFocused();
});

test('the session list is one Tab stop; arrow keys move inside it and Enter opens', async ({ app }) => {
  const chat = new ChatPage(app.page);
  const shell = new AppShell(app.page);
  for (const text of ['alpha', 'beta', 'gamma']) {
    await chatWith(chat, text);
    await shell.newChat.click();
  }
  const rows = shell.sessions;
  await expect(rows).toHaveCount(3);
  // New chat hands the focus to the message box once the new chat shows: waited for, so that it
  // does not land after the Tab below (it did once on a fresh clone, the row never focused).
  await expect(chat.input).toBeFocused();
  await shell.navSettings.focus();
  await app.page.keyboard.press('Tab');
  await expect(rows.nth(0)).toBeFocused();
  await app.page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await app.page.keyboard.press('End');
  await expect(rows.nth(2)).toBeFocused();
  // One Tab leaves the whole list.
  await app.page.keyboard.press('Tab');
  await expect(rows.nth(0)).not.toBeFocused();
  await expect(rows.nth(2)).not.toBeFocused();
  await app.page.keyboard.press('Shift+Tab');
  await expect(rows.nth(2)).toBeFocused();
  await app.page.keyboard.press('Enter');
  await expect(chat.title).toHaveText('alpha');
  await expect(chat.input).toBeFocused();
});

test('History: search finds a failed turn by its error text, and Export says where the file went', async ({ app }) => {
  await app.setScript('503*');
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.autoRetry.uncheck();
  const chat = new ChatPage(app.page);
  await chat.open();
  await chat.prompt('a question that fails');
  await expect(chat.erroredCards).toHaveCount(1);
  const history = new HistoryPage(app.page);
  await history.open();
  await history.search.fill('unavailable');
  const hit = history.searchHits;
  await expect(hit).toHaveCount(1);
  await expect(history.searchHitMarks).toHaveText('Unavailable');
  await history.searchHitLinks.click();
  await expect(history.detailTitle).toBeFocused();
  const download = app.page.waitForEvent('download');
  await history.exportMarkdown.click();
  const file = await download;
  await expect(history.exportStatus).toHaveText(
    `Downloaded ${file.suggestedFilename()} to your browser’s download folder.`,
  );
});

test('the settings index moves to a section and focuses its heading', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.indexLink('Simulator').click();
  await expect(settings.sectionHeading('Simulator')).toBeFocused();
});

test.describe('when the context overflows', () => {
  test.use({ appOptions: { script: 'ok,overflow' } });

  test('the chat shows where earlier messages were summarised, with the summary behind a disclosure', async ({
    app,
  }) => {
    const chat = new ChatPage(app.page);
    await chatWith(chat, 'a first message');
    await chat.prompt('a second message that overflows');
    const divider = chat.compactionDivider;
    await expect(divider).toHaveAttribute('data-status', 'done');
    await chat.openCompactionSummary();
    await expect(divider).toContainText('Summary:');
    await expect(chat.erroredCards.last()).toContainText('earlier messages were summarised and the turn tried again');
    await expect(chat.lastAssistant()).toContainText('a second message that overflows');
  });
});

test.describe('focus after an answer', () => {
  test.use({ appOptions: { script: 'tool:bash:{"command":"echo hi"},ok' } });

  test('Allow returns the focus to the composer, and so does Regenerate', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('run something');
    const tools = new ToolsPage(app.page);
    await tools.allowOnce.click();
    await chat.waitForTurnEnd();
    await expect(chat.input).toBeFocused();
    await chat.lastReply().regenerate.click();
    await chat.waitForTurnEnd();
    await expect(chat.input).toBeFocused();
  });
});
