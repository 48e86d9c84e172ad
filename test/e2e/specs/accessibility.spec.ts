// axe-core on every view in light and dark: the chat (a Markdown reply, a recovered chain's note,
// a failed card with its actions, the failure banner), Settings, and the History (the session list,
// the errored filter, a session's detail) — zero violations of any rule axe runs by default.
// Also three screens a person met (issue 45, item 20): History's errored list with two failed
// attempts that had streamed words (each "What arrived before the error" must not be a landmark of
// the same name), the 760 px window with its sidebar drawer open, and the MCP form, whose Name field
// is named "Name" (its hint describes it, and is not part of its name).
import { test, expect } from '../fixtures/app';
import { axeViolations as violations } from '../fixtures/axe';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import { SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';

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

test.describe('two failed attempts with words', () => {
  test.use({ appOptions: { set: ['retry.enabled=false'], script: 'stream_error,stream_error' } });

  test("History's errored list passes axe with two partial replies", async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('tell me a story');
    await expect(chat.erroredCards).toHaveCount(1);
    await chat.prompt('and another');
    await expect(chat.erroredCards).toHaveCount(2);
    const history = new HistoryPage(app.page);
    await history.open();
    await history.erroredOnly.check();
    await expect(app.page.getByTestId('partial-reply')).toHaveCount(2);
    expect(await violations(app.page)).toEqual([]);
  });
});

test('the 760 px window with its sidebar drawer open passes axe, skip link included', async ({ app }) => {
  const { page } = app;
  await page.setViewportSize({ width: 760, height: 600 });
  const shell = new AppShell(page);
  await shell.sidebarToggle.click();
  await expect(shell.sidebar).toBeVisible();
  expect(await violations(page)).toEqual([]);
  const skip = page.getByTestId('skip-link');
  await skip.focus();
  await expect(skip).toBeInViewport();
  // Shown on focus above the open drawer, not under it: the point at its centre is the link.
  const box = (await skip.boundingBox())!;
  const onTop = `document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2})?.closest('[data-testid="skip-link"]') !== null`;
  expect(await page.evaluate(onTop)).toBe(true);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SCREENS}/narrow-drawer-skip-link-${scheme}.png` });
    expect(await violations(page)).toEqual([]);
  }
});

test("the MCP form's Name field is named Name, its hint only describes it", async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.openMcp();
  await settings.mcpAdd.click();
  await expect(settings.mcpFormName).toHaveAccessibleName('Name');
  await expect(settings.mcpFormName).toHaveAccessibleDescription('Letters, digits, _ and -');
  for (const language of ['en', 'ja'] as const) {
    await settings.setLanguage(language);
    await settings.openMcp();
    const form = app.page.getByTestId('mcp-form');
    await form.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await app.page.emulateMedia({ colorScheme: scheme });
      expect(await violations(app.page)).toEqual([]);
      await form.screenshot({ path: `${SCREENS}/mcp-form-${language}-${scheme}.png` });
    }
  }
});
