// Chats side by side in the window (docs/architecture.md, "Chats side by side"): a chat whose retry
// waits is left for a new one, which answers meanwhile; the first chat's row counts down in the
// sidebar, says "New reply" once its retry has recovered, and opened again shows that reply; a
// chat that waits for an approval says so on its row. Screenshots of the sidebar in en/ja/ko, light
// and dark, go to test-results/screens.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

test.describe('a retry that waits a few seconds', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=4000', 'retry.jitterMaxMs=0'], script: '503,ok,ok' } });

  test('a second chat is used while the first waits; the first counts down in the sidebar, then says its reply came', async ({
    app,
  }) => {
    const page = app.page;
    const chat = new ChatPage(page);
    const banner = new RetryBanner(page);
    await chat.prompt('first chat');
    await expect(banner.root).toContainText('Retrying (1/3)');

    const shell = new AppShell(page);
    await shell.newChat.click();
    await chat.prompt('second chat');
    await expect(chat.lastAssistant()).toContainText('second chat');
    await expect(banner.root).toBeHidden();
    await expect(chat.userMessages).toHaveCount(1);
    const first = shell.session('first chat');
    const activity = shell.activityOf(first);
    await expect(activity).toHaveAttribute('data-state', 'retrying');
    await expect(activity).toContainText(/^Retrying in \d s$/);

    // Its retry recovers while the second chat is shown: nothing of it shows here, its row says so.
    await expect(activity).toHaveText('New reply', { timeout: 15_000 });
    await expect(activity).toHaveAttribute('data-attention', 'reply');
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.userMessages).toContainText('second chat');
    expect(await axeViolations(page)).toEqual([]);
    await shell.sidebarNav.screenshot({ path: `${SCREENS}/side-by-side-new-reply-en-light.png` });

    await first.click();
    await expect(chat.title).toHaveText('first chat');
    await expect(chat.lastAssistant()).toContainText('first chat');
    await expect(shell.activityOf(first)).toHaveCount(0);
    expect(await app.requests()).toHaveLength(3);
  });
});

test.describe('a retry that waits ten minutes', () => {
  test.use({
    appOptions: { set: ['retry.baseDelayMs=600000', 'retry.maxDelayMs=600000', 'retry.jitterMaxMs=0'], script: '503' },
  });

  test("the waiting chat's countdown in the sidebar, in en/ja/ko, light and dark", async ({ app }) => {
    const page = app.page;
    const chat = new ChatPage(page);
    await chat.prompt('the chat that waits');
    await expect(new RetryBanner(page).root).toContainText('Retrying (1/3)');
    const shell = new AppShell(page);
    await shell.newChat.click();
    await chat.prompt('meanwhile, another question');
    await expect(chat.lastAssistant()).toContainText('another question');
    const waiting = shell.session('the chat that waits');
    await expect(shell.activityOf(waiting)).toHaveText(/^Retrying in (10|9) min$/);

    const settings = new SettingsPage(page);
    const expected = { en: /Retrying in/, ja: /後に再試行/, ko: /후 재시도/ };
    for (const language of ['en', 'ja', 'ko'] as const) {
      await settings.open();
      await settings.setLanguage(language);
      await chat.open();
      await expect(shell.activityOf(waiting)).toHaveText(expected[language]);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        if (language === 'en') expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: `${SCREENS}/side-by-side-${language}-${scheme}.png` });
      }
    }
  });
});
