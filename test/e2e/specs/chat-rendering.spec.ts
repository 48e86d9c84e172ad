// The chat people would choose, part 1 — what a reply looks like and what can be done with it,
// through the real UI against the simulator: Markdown (heading, table, highlighted code with a Copy
// button that copies), no script from a reply's raw HTML, edit and resend, regenerate, Retry on a
// failed card (one request), the prompt back in the composer after the retries ran out, and Resend
// after a cancelled retry: the replaced version one click away, History counting what it shows.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { allTurns } from '../fixtures/history-db';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';

test('Markdown: a reply renders a heading, a table and a highlighted code block whose Copy button copies it', async ({
  app,
}) => {
  await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const chat = new ChatPage(app.page);
  await chat.prompt('Show me some Markdown');
  const reply = chat.lastReply();
  await expect(reply.headings).toHaveText('Markdown from the simulator');
  await expect(reply.tableRows).toHaveCount(4);
  await expect(reply.tableHeaders.first()).toHaveText('Category');
  await expect(reply.codeKeywords.first()).toHaveText('export');
  const link = reply.link('https://example.com/resolute');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await reply.copyCode.click();
  await expect(reply.copyCode).toHaveText('Copied');
  // The test side has no DOM types: reach the page's clipboard through globalThis.
  const copied = await app.page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
  expect(copied).toBe(
    [
      '// Each wait doubles, capped at the maximum delay.',
      'export function backoffMs(attempt: number, baseMs = 2000, maxMs = 60_000): number {',
      '  return Math.min(baseMs * 2 ** (attempt - 1), maxMs);',
      '}',
    ].join('\n'),
  );
});

test('a reply with <img onerror>, <script> and a javascript: link shows them as text and runs nothing', async ({
  app,
}) => {
  const chat = new ChatPage(app.page);
  const title = await app.page.title();
  await chat.prompt('Send me some raw HTML');
  const reply = chat.lastReply();
  await expect(reply.root).toContainText("<script>document.title = 'xss-script'</script>");
  await expect(reply.root).toContainText('<img src="x" onerror=');
  await expect(reply.rawHtmlElements).toHaveCount(0);
  await expect(reply.javascriptLinks).toHaveCount(0);
  await expect(reply.root.getByText('javascript: link')).toBeVisible();
  // Nothing ran: the page's title is still its own.
  expect(await app.page.title()).toBe(title);
});

test('the person own messages render as plain text, Markdown and all', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.prompt('# not a heading **not bold**');
  await expect(chat.lastPrompt().renderedMarkdown).toHaveCount(0);
  await expect(chat.lastPrompt().root).toContainText('# not a heading **not bold**');
});

test('edit and resend: the edited message is sent once, the chat shows the new branch, the history keeps the old', async ({
  app,
}) => {
  const chat = new ChatPage(app.page);
  await chat.prompt('first question');
  await expect(chat.lastAssistant()).toContainText('first question');
  await chat.prompt('second question');
  await expect(chat.lastAssistant()).toContainText('second question');
  await chat.lastPrompt().edit.click();
  await expect(chat.editInput).toBeFocused();
  await chat.editInput.fill('second, edited');
  await chat.editSend.click();
  await expect(chat.lastAssistant()).toContainText('I received "second, edited"');
  await expect(chat.userMessages).toHaveText([/first question/, /second, edited/]);
  await expect(chat.input).toBeFocused();
  const requests = await app.requests();
  expect(requests.map((r) => r.lastUserText)).toEqual(['first question', 'second question', 'second, edited']);
  // The reply shows while it streams; it is stored when it ends.
  await expect.poll(() => allTurns(app.dataDir).length).toBe(6);
  const turns = allTurns(app.dataDir);
  expect(turns.map((t) => [t.role, t.branch_from])).toEqual([
    ['user', null],
    ['assistant', null],
    ['user', null],
    ['assistant', null],
    ['user', 3],
    ['assistant', null],
  ]);
  expect(turns[2].text).toBe('second question');
});

test('regenerate asks once more for the last reply and replaces it', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.prompt('say it twice');
  await expect(chat.lastAssistant()).toContainText('say it twice');
  await chat.lastReply().regenerate.click();
  await expect.poll(async () => (await app.requests()).length).toBe(2);
  await expect.poll(() => allTurns(app.dataDir).length).toBe(3);
  await expect(chat.assistantMessages).toHaveCount(1);
  expect(allTurns(app.dataDir).map((t) => t.branch_from)).toEqual([null, null, 2]);
});

test.describe('with auto-retry off', () => {
  test.use({ appOptions: { set: ['retry.enabled=false'], script: '503' } });

  test('Retry on a failed card sends exactly one new request; the failure stays above the answer', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('try me again');
    const card = chat.erroredCard();
    await expect(card.root).toContainText('Not retried: auto-retry is off');
    await card.retry.click();
    await expect(chat.lastAssistant()).toContainText('I received "try me again"');
    expect((await app.requests()).map((r) => r.step)).toEqual(['503', 'ok']);
    await expect(chat.erroredCards).toHaveCount(1);
    await expect(chat.input).toBeFocused();
  });
});

test.describe('when every retry fails', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503*' } });

  test('the prompt is put back in the composer after the retries ran out', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('bring my words back');
    await expect(new RetryBanner(app.page).root).toContainText('Retry failed after 3 retries', { timeout: 15_000 });
    await expect(chat.input).toHaveValue('bring my words back');
  });

  test('the banner and the card count the same retries: 3, from 4 requests', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('count with me');
    const banner = new RetryBanner(app.page);
    await expect(banner.root).toContainText('Retry failed after 3 retries: 503 Service Unavailable', {
      timeout: 15_000,
    });
    await expect(chat.erroredCard().decision).toHaveText('Decision: Gave up after 3 retries');
    await expect(chat.erroredCards).toHaveCount(1);
    expect(await app.requests()).toHaveLength(4);
    // One exchange ended in an error: the sidebar says 1, at once.
    const shell = new AppShell(app.page);
    await expect(shell.erroredBadge).toContainText('1');
  });
});

test.describe('Resend after a cancelled retry', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=300'], script: '503*' } });

  test('the replaced version is one click away, and History shows every failed chain and counts what it shows', async ({
    app,
  }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('the question');
    await chat.erroredCard().expectStatus('failed');
    await chat.erroredCard().retry.click();
    const banner = new RetryBanner(app.page);
    await expect(banner.root).toBeVisible();
    await banner.cancel.click();
    await chat.erroredCard().expectOutcome('cancelled');
    await app.setScript('');
    await chat.erroredCard().resend.click();
    await chat.waitForTurnEnd();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.erroredCards).toHaveCount(0);
    const shell = new AppShell(app.page);
    await expect(shell.erroredBadge).toContainText('2 errored');
    // The message names its versions; the earlier one holds both failed chains, offering nothing to act on.
    const message = chat.lastPrompt();
    await expect(message.branchVersions).toHaveText('2 / 2');
    await message.branchPrevious.click();
    await expect(message.branchVersions).toHaveText('1 / 2');
    await expect(chat.erroredCards).toHaveCount(2);
    await expect(chat.assistantMessages).toHaveCount(0);
    await expect(chat.retryButtons).toHaveCount(0);
    await message.branchNext.click();
    await expect(chat.erroredCards).toHaveCount(0);
    await expect(chat.assistantMessages).toHaveCount(1);
    // History: the counts are of what it shows, and the failed chains of the other version are listed.
    const history = new HistoryPage(app.page);
    await history.open();
    await history.sessionRowLink().click();
    await expect(history.detailCounts).toContainText('1 of 2 turns shown');
    await expect(history.detailCounts).toContainText('2 errored');
    await expect(history.detailUserMessages).toHaveCount(1);
    await expect(history.detailOtherVersionCards).toHaveCount(2);
    await expect(history.detailErroredCards).toHaveCount(2);
    expect(await axeViolations(app.page)).toEqual([]);
    // Its switcher shows the earlier version in place: both chains on it, none left below.
    await history.detailBranchPrevious.click();
    await expect(history.detailOtherVersions).toHaveCount(0);
    await expect(history.detailErroredCards).toHaveCount(2);
    await expect(history.detailCounts).toContainText('1 of 2 turns shown');
  });
});
