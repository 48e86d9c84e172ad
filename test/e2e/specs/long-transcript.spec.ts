// A long stored session (1,200+ turns, written through the history store before the app starts)
// in the virtualised chat: only the rows near the viewport are in the DOM, the keyboard reaches
// its first turn (older pages coming in on the way), and a new reply streams pinned to the bottom
// — unless the reader scrolled up, who is then left where they are; the History detail is
// virtualised too and pages back by its button. No timings: each step waits on what the page shows.
import type { Locator, Page } from '@playwright/test';
import { turnsOf, writeLongSession } from '../../fixtures/long-session';
import { test, expect, type AppHandle } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';

const EXCHANGES = 600;
/** Well above what a viewport and its overscan hold, well below the session's rows. */
const MAX_ROWS = 80;

async function openLongSession(app: AppHandle): Promise<Page> {
  await app.stop();
  writeLongSession(`${app.dataDir}/history.db`, EXCHANGES);
  const page = await app.restart();
  const shell = new AppShell(page);
  await shell.sessions.first().click();
  await expect(new ChatPage(page).assistantMessages.last()).toContainText(`answer ${EXCHANGES}:`);
  return page;
}

/** Pixels between the bottom of what the transcript shows and the end of its content. */
function fromBottom(transcript: Locator): Promise<number> {
  return transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

test('a long session keeps only the rows near the viewport in the DOM, and Home reaches its first turn', async ({
  app,
}) => {
  const page = await openLongSession(app);
  const chat = new ChatPage(page);
  const rows = chat.transcriptItems;
  const transcript = chat.transcript;
  expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
  // Each row says where it stands in the list, as most rows are not in the DOM (where the session
  // is paged, the list holds its newest page for now).
  const size = Number(await rows.last().getAttribute('aria-setsize'));
  expect(size).toBeGreaterThan(await rows.count());
  await expect(rows.last()).toHaveAttribute('aria-posinset', String(size));
  expect(await fromBottom(transcript)).toBeLessThan(80);

  // The transcript takes the focus and scrolls by keyboard; where the session is paged, Home at
  // the top fetches the page before, keeping the reader's place, so it takes one Home a page.
  await transcript.focus();
  await expect(async () => {
    await page.keyboard.press('Home');
    await expect(rows.first()).toHaveAttribute('aria-setsize', String(turnsOf(EXCHANGES)), { timeout: 500 });
  }).toPass({ timeout: 60_000, intervals: [100] });
  // Nothing older left: Home goes to the very top, the first turn.
  await page.keyboard.press('Home');
  await expect(chat.userMessages.first()).toContainText('question 1:');
  await expect(rows.first()).toHaveAttribute('aria-posinset', '1');
  expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
  await expect(chat.repliesSaying(`answer ${EXCHANGES}:`)).toHaveCount(0);
});

test('a new reply streams pinned to the bottom; scrolling up while it streams leaves the reader there', async ({
  app,
}) => {
  const page = await openLongSession(app);
  const chat = new ChatPage(page);
  const transcript = chat.transcript;
  await app.setScript('slow');
  // Sending from higher up brings the bottom back: the person wants to see the answer.
  await transcript.evaluate((el) => el.scrollBy({ top: -3000 }));
  await chat.prompt('a question at the end of a long session');
  const streaming = chat.streamingReply;
  const streamedLength = () => streaming.evaluate((el) => el.textContent?.length ?? 0);
  const height = () => transcript.evaluate((el) => el.scrollHeight);
  await expect.poll(streamedLength).toBeGreaterThan(200);
  const before = await height();
  await expect.poll(height).toBeGreaterThan(before + 40);
  expect(await fromBottom(transcript)).toBeLessThan(80);
  await expect(streaming).toBeInViewport();

  // Up by less than the rows rendered below the viewport: the reply keeps growing there, measured.
  const box = await transcript.boundingBox();
  if (!box) throw new Error('the transcript is not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await expect.poll(() => fromBottom(transcript)).toBeGreaterThan(200);
  const readingAt = await transcript.evaluate((el) => el.scrollTop);
  const [lengthThen, heightThen] = [await streamedLength(), await height()];
  await expect.poll(streamedLength).toBeGreaterThan(lengthThen + 150);
  await expect.poll(height).toBeGreaterThan(heightThen + 20);
  expect(Math.abs((await transcript.evaluate((el) => el.scrollTop)) - readingAt)).toBeLessThan(5);
  // Nor when the reply ends and is stored.
  await expect(chat.stop).toBeHidden({ timeout: 30_000 });
  expect(Math.abs((await transcript.evaluate((el) => el.scrollTop)) - readingAt)).toBeLessThan(5);
});

test('the session in History is virtualised too, scrolling with its pane; axe finds nothing in either list', async ({
  app,
}) => {
  const page = await openLongSession(app);
  expect(await axeViolations(page), 'the chat').toEqual([]);
  const history = new HistoryPage(page);
  await history.open();
  await history.sessionLinks.click();
  await expect(history.detailTitle).toBeFocused();
  const chat = new ChatPage(page);
  const rows = chat.transcriptItems;
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
  // The detail opens at its top; the pane's own scrolling brings the newest answer.
  await expect(async () => {
    await new AppShell(page).paneScroll.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(chat.assistantMessages.last()).toContainText(`answer ${EXCHANGES}:`, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
  expect(await axeViolations(page), 'a session in History').toEqual([]);
  // "Show older turns" a page at a time; then "The start of this session" where it was.
  const older = chat.loadOlder;
  await expect(async () => {
    await older.click({ timeout: 1000 });
    await expect(chat.sessionStart).toHaveText('The start of this session', { timeout: 500 });
  }).toPass({ timeout: 60_000 });
  await expect(rows.first()).toHaveAttribute('aria-setsize', String(turnsOf(EXCHANGES)));
  expect(await rows.count()).toBeLessThanOrEqual(MAX_ROWS);
});
