// axe-core on every view in light and dark: the chat (a Markdown reply, a recovered chain's note,
// a failed card with its actions, the failure banner), Settings, and the History (the session list,
// the errored filter, a session's detail) — zero violations of any rule axe runs by default.
import { test, expect } from '../fixtures/app';
import { axeViolations as violations } from '../fixtures/axe';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

test.describe('axe-core', () => {
  // A Markdown reply, then a chain that recovers, then one whose retries all fail (fast backoff).
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: 'ok,503,ok,503*' } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`chat, settings and history have no violations in ${scheme}`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      const chat = new ChatPage(app.page);
      await chat.prompt('Show me some Markdown');
      await expect(chat.lastAssistant().locator('h1')).toBeVisible();
      await chat.prompt('wobble then answer');
      await expect(chat.recoveredNote).toBeVisible();
      await chat.prompt('this one fails');
      await expect(new RetryBanner(app.page).root).toContainText('Retry failed after 3 retries', { timeout: 15_000 });
      await chat.recoveredNote.locator('summary').click();
      // The card's disclosures open: the provider's own words and the timeline.
      for (const summary of await chat.erroredCards.last().locator('summary').all()) await summary.click();
      expect(await violations(app.page), 'chat').toEqual([]);

      const settings = new SettingsPage(app.page);
      await settings.open();
      await settings.testConnection.click();
      await expect(settings.testConnectionResult).not.toBeEmpty();
      expect(await violations(app.page), 'settings').toEqual([]);

      const history = new HistoryPage(app.page);
      await history.open();
      await expect(history.sessions).toHaveCount(1);
      expect(await violations(app.page), 'history').toEqual([]);
      await history.erroredOnly.check();
      await expect(history.erroredTurns).toHaveCount(2);
      expect(await violations(app.page), 'history, errored only').toEqual([]);
      await history.erroredOnly.uncheck();
      await history.sessionLinks.click();
      await expect(history.detailTitle).toBeFocused();
      expect(await violations(app.page), 'history, a session').toEqual([]);
    });
  }
});
