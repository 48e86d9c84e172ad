// The visible behaviours of the desktop UI (issue: the desktop UI): the banner's text and
// countdown, the settings toggle persisting across a reload, the tab's icon, an errored turn's
// timeline in the history view, the shell that never scrolls with a sidebar longer than the window,
// the banner in Japanese and Korean, and screenshots of the three
// screens in light and dark saved as artifacts (test-results/screens).
import { test, expect } from '../fixtures/app';
import { SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

test.describe('with a slow backoff', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=3000'], script: '503,ok' } });

  test('the banner reads "Retrying (1/3) in Ns… (esc to cancel)" and counts down', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('count down please');
    await expect(banner.root).toContainText('Retrying (1/3) in 3s… (esc to cancel)');
    await expect(banner.root).toContainText('Retrying (1/3) in 2s…');
    await expect(banner.root).toContainText('Retrying (1/3) in 1s…');
    await expect(banner.root).toHaveAttribute('aria-live', 'polite');
    await expect(chat.lastAssistant()).toContainText('Simulated reply', { timeout: 10_000 });
    await expect(banner.root).toBeHidden();
  });

  test('Retry now says "Retrying now" at the click, not a countdown that runs on', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('no waiting please');
    await expect(banner.root).toContainText('Retrying (1/3) in');
    // Clicked and read in the page before its next paint: what the person sees the moment they click.
    type Page = {
      document: { querySelector(s: string): { textContent: string } | null };
      requestAnimationFrame(run: () => void): void;
    };
    const shown = await banner.retryNow.evaluate(
      (button) =>
        new Promise<string | undefined>((resolve) => {
          const page = globalThis as unknown as Page;
          (button as unknown as { click(): void }).click();
          page.requestAnimationFrame(() =>
            resolve(page.document.querySelector('[data-testid="retry-banner-text"]')?.textContent),
          );
        }),
    );
    expect(shown).toContain('Retrying now (1/3)');
    await expect(chat.lastAssistant()).toContainText('Simulated reply');
  });

  for (const [language, text] of [
    ['ja', '再試行中 (1/3)'],
    ['ko', '재시도 중 (1/3)'],
  ] as const) {
    test(`the banner speaks ${language}`, async ({ app }) => {
      const settings = new SettingsPage(app.page);
      await settings.open();
      await settings.setLanguage(language);
      const chat = new ChatPage(app.page);
      await chat.open();
      await chat.prompt('こんにちは');
      await expect(new RetryBanner(app.page).root).toContainText(text);
      await app.page.keyboard.press('Escape');
      await expect(new RetryBanner(app.page).root).not.toContainText(text);
    });
  }
});

test.describe('a sidebar longer than the window', () => {
  test.use({ appOptions: { script: Array(10).fill('auth').join(',') } });

  test('the shell never scrolls: errored chats below the fold leave the header in place', async ({ app }) => {
    const page = app.page;
    await page.setViewportSize({ width: 1280, height: 360 });
    const chat = new ChatPage(page);
    const shell = new AppShell(page);
    for (let n = 1; n <= 10; n++) {
      if (n > 1) await shell.newChat.click();
      await chat.prompt(`question ${n}`);
      await expect(shell.erroredBadge).toHaveCount(n);
    }
    // Some badges (and their visually hidden words) are now below the sidebar's fold.
    // The page's own globals, typed here: the e2e specs compile without the DOM's types.
    type Page = { document: { documentElement: { scrollHeight: number; scrollTop: number } }; innerHeight: number };
    const size = await page.evaluate(() => {
      const g = globalThis as unknown as Page;
      return { scroll: g.document.documentElement.scrollHeight, window: g.innerHeight };
    });
    expect(size.scroll).toBe(size.window);
    await chat.title.hover();
    await page.mouse.wheel(0, 400);
    await expect(chat.title).toBeInViewport();
    expect(await page.evaluate(() => (globalThis as unknown as Page).document.documentElement.scrollTop)).toBe(0);
  });
});

test('the auto-retry switch persists across a reload', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.autoRetry.uncheck();
  await app.page.reload();
  await settings.open();
  await expect(settings.autoRetry).not.toBeChecked();
  await settings.autoRetry.check();
  await app.page.reload();
  await settings.open();
  await expect(settings.autoRetry).toBeChecked();
});

test('the tab shows the app icon, served under the page token', async ({ app }) => {
  test.skip(app.host === 'electron', 'The window takes its icon from the app, not from a favicon');
  // Chromium fetches the favicon itself, with the page's cookie; a 401 would leave the tab blank.
  const icon = app.page.waitForResponse((response) => /\/assets\/icon-small-[\w-]+\.svg$/.test(response.url()));
  await app.page.reload();
  const response = await icon;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/svg+xml');
});

test('a refused setting shows the main process message next to the field', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  const field = settings.maxRetries;
  await field.fill('42');
  await field.blur();
  await expect(settings.maxRetriesError).toContainText(/at most 9/);
});

test.describe('history', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503,503,ok' } });

  test('the history view shows a retry chain once, with its whole timeline', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('show me the timeline');
    await expect(chat.lastAssistant()).toContainText('Simulated reply', { timeout: 10_000 });
    const history = new HistoryPage(app.page);
    await history.open();
    await expect(history.sessions.first()).toContainText('show me the timeline');
    // One exchange, which recovered: "1 turn", and no exchange ended in an error.
    await expect(history.sessions.first()).toContainText('1 turn');
    await expect(history.sessionErroredBadge()).toHaveCount(0);
    await history.erroredOnly.click();
    // Two failed attempts of one chain: one entry.
    await expect(history.erroredTurns).toHaveCount(1);
    await expect(history.turnTimelineEntries()).toHaveCount(3);
    await expect(history.turnTimeline()).toBeVisible();
    await expect(history.turnTimelineEntries().first()).toContainText('503 Service Unavailable');
    await expect(history.turnOutcome()).toContainText(/recovered/i);
  });

  test('full-text search finds a turn and highlights the matched word', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('where is the lighthouse keeper');
    await expect(chat.lastAssistant()).toContainText('Simulated reply', { timeout: 10_000 });
    const history = new HistoryPage(app.page);
    await history.open();
    await history.search.fill('lighthouse');
    await expect(history.searchHits.first()).toContainText('where is the lighthouse keeper');
    await expect(history.searchHitMarks.first()).toHaveText('lighthouse');
  });
});

test.describe('screenshots', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=20000', 'retry.maxDelayMs=600000'], script: '503,ok' } });

  for (const scheme of ['light', 'dark'] as const) {
    test(`chat with the banner, settings and history in ${scheme}`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      const chat = new ChatPage(app.page);
      await chat.prompt('Why do retries need a decision table?');
      await expect(new RetryBanner(app.page).root).toContainText('Retrying (1/3)');
      await app.page.screenshot({ path: `${SCREENS}/chat-banner-${scheme}.png` });
      const settings = new SettingsPage(app.page);
      await settings.open();
      await expect(settings.decisionTable).toBeVisible();
      await app.page.screenshot({ path: `${SCREENS}/settings-${scheme}.png`, fullPage: true });
      const history = new HistoryPage(app.page);
      await history.open();
      await expect(history.sessions.first()).toBeVisible();
      await app.page.screenshot({ path: `${SCREENS}/history-${scheme}.png` });
      await app.page.keyboard.press('Escape');
    });
  }
});
