// Screenshots of the screens issue 30's later points changed, saved under test-results/screens for
// people to look at, in English light and dark, Japanese dark and Korean light: a resent message's
// branch switcher (and its earlier version), History's session view with the failed chains of the
// other version, Settings' first section with the model picker, a cancelled retry's quiet card, and
// the chat at 760 px. Each view is checked with axe-core too.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

const SCREENS = 'test-results/screens';

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
        await page.screenshot({ path: `${SCREENS}/issue30-${name}-${language}-${scheme}.png` });
        expect(await axeViolations(page), name).toEqual([]);
      };
      await page.emulateMedia({ colorScheme: scheme });
      const settings = new SettingsPage(page);
      await settings.open();
      await settings.setLanguage(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await page.getByTestId('settings-provider').selectOption('anthropic');
      await expect(page.getByTestId('settings-model')).toHaveValue('claude-opus-4-7');
      await shot('settings');
      await page.getByTestId('settings-provider').selectOption('simulator');
      await page.getByTestId('nav-chat').click();
      const chat = new ChatPage(page);
      await chat.prompt('What does the retry banner count?');
      await expect(chat.erroredCards.last()).toHaveAttribute('data-status', 'failed');
      await chat.erroredCards.last().getByTestId('card-retry').click();
      await expect(new RetryBanner(page).root).toBeVisible();
      await page.getByTestId('retry-cancel').click();
      await expect(chat.erroredCards.last()).toHaveAttribute('data-outcome', 'cancelled');
      await shot('cancelled');
      await app.setScript('');
      await chat.erroredCards.last().getByTestId('card-resend').click();
      await chat.waitForTurnEnd();
      await shot('branch-latest');
      await chat.userMessages.last().getByTestId('branch-previous').click();
      await expect(chat.erroredCards).toHaveCount(2);
      await shot('branch-earlier');
      await new HistoryPage(page).open();
      await page.getByTestId('history-session-row').first().getByRole('link').click();
      await expect(page.getByTestId('history-other-versions')).toBeVisible();
      await shot('history-versions');
      await page.setViewportSize({ width: 760, height: 700 });
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('nav-chat').click();
      await expect(page.getByTestId('sidebar')).toBeHidden();
      await shot('narrow-chat');
    });
  });
}
