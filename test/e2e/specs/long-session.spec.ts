// A long stored session in the browser mode: resuming it shows only its newest page, and
// "Show older turns" (or scrolling to the top) brings the earlier turns in, oldest first, without
// losing the reader's place. The history is written through the store before the app starts.
import type { ChatMessage } from '../../../src/shared/messages';
import { TURN_PAGE_SIZE } from '../../../src/shared/history';
import { openHistoryStore } from '../../../src/main/node/history/sqlite-history-store';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';

const TURNS = 250;

function writeLongSession(dataDir: string): void {
  const store = openHistoryStore(`${dataDir}/history.db`);
  store.ensureSession({
    id: 'long',
    title: 'A long session',
    model: 'resolute-sim-1',
    provider: 'simulator',
    createdAt: 1,
  });
  store.batch(() => {
    for (let n = 1; n <= TURNS; n += 1) {
      const message: ChatMessage =
        n % 2 === 1
          ? { role: 'user', content: `question ${n}`, timestamp: n * 1000 }
          : {
              role: 'assistant',
              content: [{ type: 'text', text: `answer ${n}` }],
              provider: 'simulator',
              model: 'resolute-sim-1',
              usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
              stopReason: 'stop',
              timestamp: n * 1000,
            };
      store.appendTurn({ sessionId: 'long', message });
    }
  });
  store.close();
}

test('a resumed long session opens on its newest page and pages back on request', async ({ app }, testInfo) => {
  await app.stop();
  writeLongSession(app.dataDir);
  const page = await app.restart();
  await page.getByTestId('sidebar-session').first().click();
  const chat = new ChatPage(page);
  await expect(chat.assistantMessages.last()).toContainText(`answer ${TURNS}`);
  const bubbles = page.locator('[data-testid="message-user"], [data-testid="message-assistant"]');
  await expect(bubbles).toHaveCount(TURN_PAGE_SIZE);
  const older = page.getByRole('button', { name: 'Show older turns' });
  await expect(older).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('long-session.png') });

  // Bringing the button into view scrolls to the top, which may fetch a page by itself: at least one comes.
  await older.click();
  await expect.poll(() => bubbles.count()).toBeGreaterThanOrEqual(2 * TURN_PAGE_SIZE);
  // Scrolling to the top fetches what is left; then there is nothing older to show.
  await page.getByTestId('transcript').evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(bubbles).toHaveCount(TURNS);
  await expect(older).toBeHidden();
  await expect(chat.userMessages.first()).toContainText('question 1');
});
