// The keyboard shortcuts people bring from Claude desktop and ChatGPT (issue 45, "What people bring"),
// each one declaration in src/shared/app-commands.ts: Ctrl+/ shows the list in Settings, Ctrl+, opens
// Settings, Ctrl+Shift+O starts a chat, Ctrl+1…9 and Ctrl+Shift+] [ move between the sidebar's
// chats, Ctrl+. hides and shows the sidebar, Ctrl+Shift+C copies the last reply; a "/" typed at a
// message's start that names no command stays the person's text — with screenshots of the list in
// en, ja and ko, light and dark.
import { test, expect } from '../fixtures/app';
import { SCREENS } from '../fixtures/screens';
import { inEachLanguage } from '../fixtures/in-each-language';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';

test('Ctrl+/, Ctrl+, and Ctrl+Shift+O; Ctrl+2 and Ctrl+Shift+] [ move between chats; Ctrl+. hides the sidebar', async ({
  app,
}) => {
  const { page } = app;
  const shell = new AppShell(page);
  const chat = new ChatPage(page);
  for (const words of ['first chat', 'second chat']) {
    if (words !== 'first chat') {
      await page.keyboard.press('Control+Shift+O');
      await expect(chat.input).toBeFocused();
    }
    await chat.prompt(words);
    await chat.waitForTurnEnd();
  }
  await expect(shell.sessions).toHaveCount(2);
  // The newest first: row 1 is "second chat", shown now; Ctrl+2 opens the first.
  await page.keyboard.press('Control+2');
  await expect(chat.title).toHaveText(/first chat/);
  await page.keyboard.press('Control+Shift+BracketRight');
  await expect(chat.title).toHaveText(/second chat/);
  await page.keyboard.press('Control+Shift+BracketLeft');
  await expect(chat.title).toHaveText(/first chat/);

  await page.keyboard.press('Control+.');
  await expect(shell.sidebar).toBeHidden();
  await page.keyboard.press('Control+.');
  await expect(shell.navChat).toBeVisible();

  await page.keyboard.press('Control+,');
  await expect(shell.navSettings).toHaveAttribute('aria-current', 'page');
  await shell.navChat.click();
  await page.keyboard.press('Control+/');
  await expect(shell.shortcutList).toBeVisible();
  await expect(shell.shortcutList).toContainText('Ctrl+N / Ctrl+Shift+O');
  await expect(shell.shortcutList).toContainText('Ctrl+1…9');
});

test('Ctrl+Shift+C copies the last reply and says so', async ({ app }) => {
  const { page } = app;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const chat = new ChatPage(page);
  await chat.prompt('say something');
  await chat.waitForTurnEnd();
  await page.keyboard.press('Control+Shift+C');
  await expect(new AppShell(page).notices.last()).toHaveText(/Copied the last reply/);
  const copied = await page.evaluate('navigator.clipboard.readText()');
  expect(String(copied).length).toBeGreaterThan(0);
  await expect(chat.assistantMessages.last()).toContainText(String(copied).trim().slice(0, 20));
});

test('a message may start with "/": a typed "/…" that names no command goes back to the box, Esc too', async ({
  app,
}) => {
  const { page } = app;
  const chat = new ChatPage(page);
  const palette = new AppShell(page).commandPalette;
  await chat.input.focus();
  await page.keyboard.type('/usr/bin');
  await expect(palette).toContainText('No command matches. Enter or Esc puts “/usr/bin” in the message.');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(chat.input).toHaveValue('/usr/bin');
  await expect(chat.input).toBeFocused();
  await page.keyboard.type(' is where the programs are');
  await expect(chat.input).toHaveValue('/usr/bin is where the programs are');

  await chat.input.fill('');
  await page.keyboard.type('/');
  await expect(palette).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chat.input).toHaveValue('/');
});

test('the shortcut list in en, ja and ko, light and dark', async ({ app }) => {
  const { page } = app;
  const shell = new AppShell(page);
  await inEachLanguage(page, { en: 'Chat', ja: 'チャット', ko: '채팅' }, async (name) => {
    await page.keyboard.press('Control+/');
    await expect(shell.shortcutList).toBeVisible();
    await shell.shortcutList.screenshot({ path: `${SCREENS}/shortcuts-${name}.png` });
    await shell.navChat.click();
  });
});
