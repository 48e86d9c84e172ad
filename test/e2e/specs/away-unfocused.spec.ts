// "While you were away" for a window left, not a chat left (docs/architecture.md, "While you were
// away"): the chat stays shown, the window loses the focus (the person went to another app), the
// retry recovers and the reply arrives meanwhile; coming back to the window shows the card, where
// the person left. A chat that recovers while the person watches shows none.
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';

test.use({
  appOptions: {
    set: ['retry.baseDelayMs=3000', 'retry.jitterMaxMs=0'],
    script: '503, ok, 503, ok',
  },
});

// The page cannot be unfocused from outside in a headless browser: the window's focus is what
// document.hasFocus() says and the blur and focus events tell, so those are what change.
const leaveWindow = (page: Page) =>
  page.evaluate(
    "Object.defineProperty(document, 'hasFocus', { configurable: true, value: () => false }); window.dispatchEvent(new Event('blur'))",
  );
const comeBack = (page: Page) => page.evaluate("delete document.hasFocus; window.dispatchEvent(new Event('focus'))");

test('a retry that recovers while the window has no focus is summed up on coming back; watched, it is not', async ({
  app,
}) => {
  const page = app.page;
  const chat = new ChatPage(page);
  const banner = new RetryBanner(page);

  // Watched: the failure and its recovery happen before the person's eyes — no card.
  await chat.prompt('first, watched');
  await expect(banner.root).toContainText('Retrying (1/3)');
  await chat.waitForTurnEnd();
  await expect(chat.recoveredNote).toHaveCount(1);
  await expect(chat.awaySummary).toHaveCount(0);

  // Away: the window loses the focus while the retry waits; the reply comes meanwhile.
  await chat.prompt('second, while away');
  await expect(banner.root).toContainText('Retrying (1/3)');
  await leaveWindow(page);
  await expect(chat.recoveredNote).toHaveCount(2, { timeout: 30_000 });
  await chat.waitForTurnEnd();
  await expect(chat.awaySummary).toHaveCount(0);

  await comeBack(page);
  await expect(chat.awaySummary).toBeVisible();
  await expect(chat.awayLine('recovered')).toHaveText('1 retry chain recovered');
  await expect(chat.awayLine('work')).toHaveText('1 reply');
});
