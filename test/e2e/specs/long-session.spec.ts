// A long stored session in the browser mode: resuming it shows only its newest page, and
// "Show older turns" (or scrolling to the top) brings the earlier turns in, oldest first, without
// losing the reader's place — also when the newest page holds an edit whose replaced turns reach
// back onto older pages (docs/architecture.md, "Branches"). The history is written through the
// store before the app starts. The transcript is virtualised above 60 rows, so the rows it holds
// are counted by what each row says of the list (aria-setsize), not by the rows in the DOM.
import type { Page } from '@playwright/test';
import type { ChatMessage } from '../../../src/shared/messages';
import { TURN_PAGE_SIZE } from '../../../src/shared/history';
import { openHistoryStore } from '../../../src/main/node/history/sqlite-history-store';
import { assistantMessage } from '../../unit/renderer/fixtures';
import { test, expect } from '../fixtures/app';
import { AppShell } from '../pages/app-shell';
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

/** How many rows the chat's list holds, rendered or not. */
function heldRows(page: Page): Promise<number> {
  return page
    .locator('.transcript-list > li')
    .last()
    .getAttribute('aria-setsize')
    .then((size) => Number(size));
}

test('a resumed long session opens on its newest page and pages back on request', async ({ app }, testInfo) => {
  await app.stop();
  writeLongSession(app.dataDir);
  const page = await app.restart();
  const shell = new AppShell(page);
  await shell.sessions.first().click();
  const chat = new ChatPage(page);
  await expect(chat.assistantMessages.last()).toContainText(`answer ${TURNS}`);
  await expect.poll(() => heldRows(page)).toBe(TURN_PAGE_SIZE);
  const older = page.getByRole('button', { name: 'Show older turns' });
  await expect(older).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('long-session.png') });

  // The button, pressed where it is: a click action would first scroll it into view, and reaching
  // the top fetches pages by itself (below), which moves the button away while the click waits.
  await older.dispatchEvent('click');
  await expect.poll(() => heldRows(page)).toBe(2 * TURN_PAGE_SIZE);
  // Home at the top fetches what is left, a page at a time; then there is nothing older to show.
  await chat.transcript.focus();
  await expect(async () => {
    await page.keyboard.press('Home');
    expect(await heldRows(page)).toBe(TURNS);
  }).toPass();
  await expect(older).toBeHidden();
  // Nothing older left: Home goes to the very top, the first turn.
  await page.keyboard.press('Home');
  await expect(chat.userMessages.first()).toContainText(/question 1(?!\d)/);
});

test('an edit far back: the newest page shows the branch, the older page the turns before the edit', async ({
  app,
}) => {
  await app.stop();
  writeLongSession(app.dataDir, { editOf: 101, exchangesAfter: 25 });
  const page = await app.restart();
  const shell = new AppShell(page);
  await shell.sessions.first().click();
  const chat = new ChatPage(page);
  // The newest page is seqs 203–302: 203–250 were replaced by the edit at 251 (from 101 on).
  await expect(chat.assistantMessages.last()).toContainText('answer to the edit 25');
  await expect.poll(() => heldRows(page)).toBe(52);
  const row = (n: number) => page.locator(`.transcript-list > li[aria-posinset="${n}"]`);

  // Up a little from the bottom, by the wheel as a person would, then the page before: seqs 1–100,
  // the turns still on the path. It joins the front out of view: what the reader sees stays put.
  const transcript = chat.transcript;
  const box = (await transcript.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -500);
  const reading = chat.userMessages.filter({ hasText: /^You: after 20(?!\d)/ });
  await expect(reading).toBeInViewport();
  const readingAt = (await reading.boundingBox())!.y;
  await page.getByRole('button', { name: 'Show older turns' }).click();
  await expect.poll(() => heldRows(page)).toBe(152);
  await expect(page.getByRole('button', { name: 'Show older turns' })).toBeHidden();
  expect(Math.abs((await reading.boundingBox())!.y - readingAt)).toBeLessThan(2);
  // Right before the edited message, the older page's last turn: nothing of what the edit
  // replaced (such as question 151) in between.
  await transcript.focus();
  await expect(async () => {
    await page.keyboard.press('PageUp');
    await expect(row(101)).toBeInViewport({ timeout: 500 });
  }).toPass();
  await expect(row(101)).toContainText('question 101, edited');
  await expect(row(100)).toContainText('answer 100');
});
