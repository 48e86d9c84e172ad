// Screenshots for people to look at (saved as artifacts under test-results/screens): in English,
// Japanese and Korean, the chat with a Markdown reply, a failed card with Retry and Resend, the
// Settings and the History; in English also in dark. Each also checks the page shows that language.
// Then, in English light and dark and in Japanese and Korean, each checked with axe-core too: a
// first message too long for the model with the Simulator badge naming its script, a prompt held
// for a rate limit and a retried attempt that called a tool; and a resent message's branch switcher
// (and its earlier version), History's session view with the failed chains of the other version,
// Settings' first section with the model picker, a cancelled retry's quiet card, the chat at 760 px.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { EACH_LANGUAGE_AND_DARK, SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import { ToolsPage } from '../pages/tools-page';

/** The words each language shows on the failed card's Retry button. */
const RETRY_WORD = { en: 'Retry', ja: '再試行', ko: '재시도' } as const;

test.describe('screenshots by language', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: 'ok,503*' } });

  for (const [language, scheme] of EACH_LANGUAGE_AND_DARK) {
    test(`chat, a failed card, settings and history in ${language} (${scheme})`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      const settings = new SettingsPage(app.page);
      await settings.open();
      await settings.setLanguage(language);
      await expect(new AppShell(app.page).document).toHaveAttribute('lang', language);
      const chat = new ChatPage(app.page);
      await chat.open();
      await chat.prompt('Show me some Markdown');
      await expect(chat.lastReply().codeBlock).toBeVisible();
      await expect(chat.lastAssistant()).not.toHaveAttribute('data-streaming', 'true');
      await chat.lastReply().headings.scrollIntoViewIfNeeded();
      await app.page.screenshot({ path: `${SCREENS}/chat-markdown-${language}-${scheme}.png` });

      await chat.prompt('This one will fail');
      await expect(new RetryBanner(app.page).root).not.toBeEmpty({ timeout: 15_000 });
      const card = chat.erroredCard();
      await expect(card.retry).toHaveText(RETRY_WORD[language], { timeout: 15_000 });
      await app.page.screenshot({ path: `${SCREENS}/chat-failed-${language}-${scheme}.png` });

      await settings.open();
      await settings.testConnection.click();
      await expect(settings.testConnectionResult).not.toBeEmpty();
      await app.page.screenshot({ path: `${SCREENS}/settings-${language}-${scheme}.png` });

      const history = new HistoryPage(app.page);
      await history.open();
      await history.erroredOnly.check();
      await expect(history.erroredTurns).toHaveCount(1);
      await app.page.screenshot({ path: `${SCREENS}/history-${language}-${scheme}.png` });
    });
  }
});

for (const [language, scheme] of [
  ['en', 'light'],
  ['en', 'dark'],
  ['ja', 'light'],
  ['ko', 'dark'],
] as const) {
  test(`overflow, held prompt and recovered tool call in ${language} (${scheme})`, async ({ app }) => {
    // Many screens, each checked by axe: three times the config's ceiling for a loaded machine.
    test.slow();
    const { page } = app;
    await page.emulateMedia({ colorScheme: scheme });
    const settings = new SettingsPage(page);
    await settings.open();
    await settings.setLanguage(language);
    await expect(new AppShell(page).document).toHaveAttribute('lang', language);
    const script = settings.simulatorScript;
    await script.fill('overflow');
    await script.press('Enter');
    const chat = new ChatPage(page);
    await chat.open();
    await chat.prompt('a very long first message');
    await expect(chat.erroredCard().largerModel).toBeVisible();
    const shell = new AppShell(page);
    await expect(shell.simulatorScript).toContainText('overflow');
    await page.screenshot({ path: `${SCREENS}/overflow-${language}-${scheme}.png` });
    expect(await axeViolations(page)).toEqual([]);

    await app.setScript('503,tool:bash:{"command":"ls"},ok');
    await shell.newChat.click();
    await chat.prompt('list the files');
    const tools = new ToolsPage(page);
    await expect(tools.approval).toBeVisible();
    await expect(chat.recoveredNote).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/tool-retry-${language}-${scheme}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await tools.deny.click();
    await chat.waitForTurnEnd();
    await app.setScript('429:120');
    await shell.newChat.click();
    await chat.prompt('a question that gets rate limited');
    await chat.erroredCard().expectStatus('failed');
    await shell.newChat.click();
    await chat.input.fill('the held question');
    await chat.send.click();
    await expect(chat.pacingNotice).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/held-prompt-${language}-${scheme}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await chat.stop.click();
    await expect(chat.input).toHaveValue('the held question');
  });
}

for (const [language, scheme] of [
  ['en', 'light'],
  ['en', 'dark'],
  ['ja', 'dark'],
  ['ko', 'light'],
] as const) {
  test.describe(`${language} (${scheme})`, () => {
    test.use({ appOptions: { set: ['retry.baseDelayMs=300'], script: '503*' } });

    test('branch switcher, History with other versions, Settings, narrow window', async ({ app }) => {
      // Many screens, each checked by axe: three times the config's ceiling for a loaded machine.
      test.slow();
      const { page } = app;
      const shot = async (name: string) => {
        await page.screenshot({ path: `${SCREENS}/resend-${name}-${language}-${scheme}.png` });
        expect(await axeViolations(page), name).toEqual([]);
      };
      await page.emulateMedia({ colorScheme: scheme });
      const settings = new SettingsPage(page);
      await settings.open();
      await settings.setLanguage(language);
      await expect(new AppShell(page).document).toHaveAttribute('lang', language);
      await settings.provider.selectOption('anthropic');
      await expect(settings.model).toHaveValue('claude-opus-4-7');
      await shot('settings');
      await settings.provider.selectOption('simulator');
      const chat = new ChatPage(page);
      await chat.open();
      await chat.prompt('What does the retry banner count?');
      await chat.erroredCard().expectStatus('failed');
      await chat.erroredCard().retry.click();
      await expect(new RetryBanner(page).root).toBeVisible();
      await new RetryBanner(page).cancelById.click();
      await chat.erroredCard().expectOutcome('cancelled');
      await shot('cancelled');
      await app.setScript('');
      await chat.erroredCard().resend.click();
      await chat.waitForTurnEnd();
      await shot('branch-latest');
      await chat.lastPrompt().branchPrevious.click();
      await expect(chat.erroredCards).toHaveCount(2);
      await shot('branch-earlier');
      const history = new HistoryPage(page);
      await history.open();
      await history.sessionRowLink().click();
      await expect(history.detailOtherVersions).toBeVisible();
      await shot('history-versions');
      await page.setViewportSize({ width: 760, height: 700 });
      const shell = new AppShell(page);
      await shell.sidebarToggle.click();
      await chat.open();
      await expect(shell.sidebar).toBeHidden();
      await shot('narrow-chat');
    });
  });
}
