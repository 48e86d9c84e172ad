// A long stored session in the browser mode: resuming it shows only its newest page, and
// "Show older turns" (or scrolling to the top) brings the earlier turns in, oldest first, without
// losing the reader's place — also when the newest page holds an edit whose replaced turns reach
// back onto older pages (docs/architecture.md, "Branches"). The history is written through the
// store before the app starts.
import type { ChatMessage } from '../../../src/shared/messages';
import { TURN_PAGE_SIZE } from '../../../src/shared/history';
import { openHistoryStore } from '../../../src/main/node/history/sqlite-history-store';
import { assistantMessage } from '../../unit/renderer/fixtures';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';

const TURNS = 250;

/**
 * question n / answer n in turn, from seq 1; then, when given, an edit of question `editOf`
 * followed by `exchangesAfter` more exchanges.
 */
function writeLongSession(dataDir: string, edit?: { editOf: number; exchangesAfter: number }): void {
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
          : assistantMessage(`answer ${n}`, n * 1000);
      store.appendTurn({ sessionId: 'long', message });
    }
    if (edit === undefined) return;
    const at = (TURNS + 1) * 1000;
    const edited: ChatMessage = { role: 'user', content: `question ${edit.editOf}, edited`, timestamp: at };
    store.appendTurn({ sessionId: 'long', message: edited, branchFrom: edit.editOf });
    store.appendTurn({ sessionId: 'long', message: assistantMessage('answer to the edit', at + 1) });
    for (let n = 1; n <= edit.exchangesAfter; n += 1) {
      store.appendTurn({ sessionId: 'long', message: { role: 'user', content: `after ${n}`, timestamp: at + 2 * n } });
      store.appendTurn({ sessionId: 'long', message: assistantMessage(`answer to the edit ${n}`, at + 2 * n + 1) });
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

  // The button, pressed where it is: a click action would first scroll it into view, and reaching
  // the top fetches pages by itself (below), which moves the button away while the click waits.
  await older.dispatchEvent('click');
  await expect(bubbles).toHaveCount(2 * TURN_PAGE_SIZE);
  // Scrolling to the top fetches what is left; then there is nothing older to show.
  await page.getByTestId('transcript').evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(bubbles).toHaveCount(TURNS);
  await expect(older).toBeHidden();
  await expect(chat.userMessages.first()).toContainText('question 1');
});

test('an edit far back: the newest page shows the branch, the older page the turns before the edit', async ({
  app,
}) => {
  await app.stop();
  writeLongSession(app.dataDir, { editOf: 101, exchangesAfter: 30 });
  const page = await app.restart();
  await page.getByTestId('sidebar-session').first().click();
  const chat = new ChatPage(page);
  const bubbles = page.locator('[data-testid="message-user"], [data-testid="message-assistant"]');
  // The newest page is seqs 213–312: 213–250 were replaced by the edit at 251 (from 101 on).
  await expect(chat.assistantMessages.last()).toContainText('answer to the edit 30');
  await expect(bubbles).toHaveCount(62);
  await expect(chat.userMessages.first()).toContainText('question 101, edited');
  const edited = chat.userMessages.filter({ hasText: 'question 101, edited' });
  // Where the edited message is when the transcript is scrolled to the top, worked out without scrolling.
  const transcript = page.getByTestId('transcript');
  const atTop = await edited.evaluate((el) => {
    const box = el.closest('[data-testid="transcript"]')!;
    return el.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  });
  const transcriptTop = (await transcript.boundingBox())!.y;

  // Scrolling to the top fetches the page before: seqs 1–100, the turns still on the path.
  await transcript.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(bubbles).toHaveCount(162);
  await expect(chat.userMessages.first()).toContainText('question 1');
  await expect(page.getByText('question 151', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Show older turns' })).toBeHidden();
  // The reader stays where they were: the edited message has not moved.
  expect(Math.abs((await edited.boundingBox())!.y - (transcriptTop + atTop))).toBeLessThan(2);
});
