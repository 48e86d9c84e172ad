// Screenshots for people to look at (saved as artifacts under test-results/screens): in English,
// Japanese and Korean, the chat with a Markdown reply, a failed card with Retry and Resend, the
// Settings and the History; in English also in dark. Each also checks the page shows that language.
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

const SCREENS = 'test-results/screens';

/** The words each language shows on the failed card's Retry button. */
const RETRY_WORD = { en: 'Retry', ja: '再試行', ko: '재시도' } as const;

test.describe('screenshots by language', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: 'ok,503*' } });

  for (const [language, scheme] of [
    ['en', 'light'],
    ['ja', 'light'],
    ['ko', 'light'],
    ['en', 'dark'],
  ] as const) {
    test(`chat, a failed card, settings and history in ${language} (${scheme})`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      const settings = new SettingsPage(app.page);
      await settings.open();
      await settings.setLanguage(language);
      await expect(app.page.locator('html')).toHaveAttribute('lang', language);
      await app.page.getByTestId('nav-chat').click();
      const chat = new ChatPage(app.page);
      await chat.prompt('Show me some Markdown');
      await expect(chat.lastAssistant().getByTestId('code-block')).toBeVisible();
      await expect(chat.lastAssistant()).not.toHaveAttribute('data-streaming', 'true');
      await chat.lastAssistant().locator('h1').scrollIntoViewIfNeeded();
      await app.page.screenshot({ path: `${SCREENS}/chat-markdown-${language}-${scheme}.png` });

      await chat.prompt('This one will fail');
      await expect(new RetryBanner(app.page).root).not.toBeEmpty({ timeout: 15_000 });
      const card = chat.erroredCards.last();
      await expect(card.getByTestId('card-retry')).toHaveText(RETRY_WORD[language], { timeout: 15_000 });
      await app.page.screenshot({ path: `${SCREENS}/chat-failed-${language}-${scheme}.png` });

      await settings.open();
      await app.page.getByTestId('test-connection').click();
      await expect(app.page.getByTestId('test-connection-result')).not.toBeEmpty();
      await app.page.screenshot({ path: `${SCREENS}/settings-${language}-${scheme}.png` });

      const history = new HistoryPage(app.page);
      await history.open();
      await history.erroredOnly.check();
      await expect(history.erroredTurns).toHaveCount(1);
      await app.page.screenshot({ path: `${SCREENS}/history-${language}-${scheme}.png` });
    });
  }
});
