// The walkthrough's bugs (issue 30, "Bugs" 1–9), each through the real UI in Chromium against
// the simulator: the refilled composer resends rather than sending twice, a held prompt shows its
// message, the banner ends when the retried attempt streams, an errored card paints one state, an
// overflow on a first message says why and puts the text back, a resent message's versions have a
// switcher and History counts what it shows, the export counts as the card does, focus stays in
// the chat after Allow and Regenerate, and the Simulator badge names its script.
import { readFileSync } from 'node:fs';
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';

test.describe('1: the refilled composer after an auth failure', () => {
  test.use({ appOptions: { script: 'auth' } });

  test('Enter on the refilled text resends the message once, as Resend does', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('X');
    await expect(chat.erroredCards.last()).toHaveAttribute('data-status', 'failed');
    await expect(chat.input).toHaveValue('X');
    await chat.input.press('Enter');
    await chat.waitForTurnEnd();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.erroredCards).toHaveCount(0);
    // Each request carried the system prompt and one "X", never two copies of it.
    expect((await app.requests()).map((r) => [r.step, r.messageCount, r.lastUserText])).toEqual([
      ['auth', 2, 'X'],
      ['ok', 2, 'X'],
    ]);
  });
});

test.describe('2: a prompt held for a rate limit', () => {
  test.use({ appOptions: { script: '429:120' } });

  test('shows the message with the wait under it, titled and listed', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('first');
    await expect(chat.erroredCards.last()).toHaveAttribute('data-status', 'failed');
    await app.page.getByTestId('new-chat').click();
    await chat.input.fill('the held question');
    await chat.send.click();
    await expect(app.page.getByTestId('pacing-notice')).toBeVisible();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.userMessages.last()).toContainText('the held question');
    await expect(app.page.getByTestId('chat-title')).toHaveText('the held question');
    await expect(app.page.getByTestId('sidebar-session').filter({ hasText: 'the held question' })).toHaveCount(1);
    // Stop gives the text back unsent: the bubble goes, the composer holds it.
    await chat.stop.click();
    await expect(chat.input).toHaveValue('the held question');
    await expect(chat.userMessages).toHaveCount(0);
  });
});

test.describe('3: a retried attempt that calls a tool', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503,tool:bash:{"command":"ls"},auth' } });

  test('recovers the chain once it streams: no banner, no Retrying card under the approval', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('list the files');
    await expect(app.page.getByTestId('approval-card')).toBeVisible();
    await expect(new RetryBanner(app.page).root).toBeHidden();
    await expect(app.page.locator('[data-testid="errored-turn-card"][data-status="retrying"]')).toHaveCount(0);
    await expect(app.page.getByTestId('recovered-note')).toContainText('Recovered after 1 retry');
  });
});

test.describe('4: a stream failure with auto-retry off', () => {
  test.use({ appOptions: { set: ['retry.enabled=false'], script: 'stream_error' } });

  test('the card paints one state from the first paint', async ({ app }) => {
    // Every state the card shows is noted as the DOM changes (test side: no DOM types, so globalThis).
    await app.page.evaluate(() => {
      const g = globalThis as unknown as {
        cardStates: string[];
        document: {
          querySelector(s: string): { getAttribute(n: string): string | null; textContent: string | null } | null;
          querySelectorAll(s: string): { length: number };
          body: object;
        };
        MutationObserver: new (cb: () => void) => { observe(t: object, o: object): void };
      };
      g.cardStates = [];
      const note = () => {
        const card = g.document.querySelector('[data-testid="errored-turn-card"]');
        if (!card) return;
        const text = (id: string) => g.document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
        const edit = g.document.querySelectorAll('[data-testid="edit-message"]').length;
        const state = `${card.getAttribute('data-status')}|${text('errored-category')}|${text('errored-decision')}|edit:${edit}`;
        if (g.cardStates[g.cardStates.length - 1] !== state) g.cardStates.push(state);
      };
      new g.MutationObserver(note).observe(g.document.body, { subtree: true, childList: true, attributes: true });
    });
    const chat = new ChatPage(app.page);
    await chat.prompt('fail mid-stream');
    await expect(chat.erroredCards.last()).toContainText('Not retried: auto-retry is off');
    await app.page.waitForTimeout(1000);
    const states = await app.page.evaluate(() => (globalThis as unknown as { cardStates: string[] }).cardStates);
    // A placeholder until the decision is in is fine; after it, one state only.
    const shown = states.filter((s) => !s.startsWith('settling|'));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain('Not retried: auto-retry is off');
  });
});

test.describe('5: context overflow on a first message', () => {
  test.use({ appOptions: { script: 'overflow' } });

  test('says the message is too long for this model, puts it back and offers a larger window', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('a very long first message');
    const card = chat.erroredCards.last();
    await expect(card).toHaveAttribute('data-status', 'failed');
    await expect(card.getByTestId('errored-decision')).toContainText(
      'This message is too long for resolute-sim-1 (a window of 8,192 tokens)',
    );
    await expect(chat.input).toHaveValue('a very long first message');
    // One statement of the failure: the card, no red toast repeating it.
    await expect(app.page.getByTestId('notice')).toHaveCount(0);
    await card.getByTestId('card-larger-model').click();
    await expect(app.page.getByTestId('model-picker')).toHaveValue('resolute-sim-3');
    // The button sends the message again to the larger model: one click, no second Enter.
    await expect(chat.lastAssistant()).toBeVisible();
    await chat.waitForTurnEnd();
    await expect(chat.input).toHaveValue('');
    expect((await app.requests()).map((r) => [r.step, r.model, r.messageCount])).toEqual([
      ['overflow', 'resolute-sim-1', 2],
      ['ok', 'resolute-sim-3', 2],
    ]);
  });

  test('after another model is chosen, the card still names the model that was too small', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('a very long first message');
    const card = chat.erroredCards.last();
    await expect(card).toHaveAttribute('data-status', 'failed');
    await app.page.getByTestId('model-picker').fill('resolute-sim-3');
    await app.page.getByTestId('model-picker').press('Enter');
    await expect(app.page.getByTestId('model-picker')).toHaveValue('resolute-sim-3');
    await expect(card.getByTestId('errored-decision')).toContainText(
      'This message is too long for resolute-sim-1 (a window of 8,192 tokens)',
    );
  });
});

test.describe('7: a cancelled chain', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=400'], script: '503*' } });

  test('the Markdown export counts the retries as the card does', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('cancel me late');
    const banner = new RetryBanner(app.page);
    await expect(banner.root).toContainText('(3/3)');
    await banner.cancel.click();
    const card = chat.erroredCards.last();
    await expect(card).toHaveAttribute('data-outcome', 'cancelled');
    await expect(card).toContainText('The first try and 2 retries failed');
    await new HistoryPage(app.page).open();
    await app.page.getByTestId('history-session-row').first().getByRole('link').click();
    const download = app.page.waitForEvent('download');
    await app.page.getByTestId('history-export-markdown').click();
    const markdown = readFileSync((await (await download).path())!, 'utf8');
    expect(markdown).toContain('**cancelled**: the first try and 2 retries failed');
    expect(markdown).not.toContain('3 retries');
  });
});

test.describe('8: focus after an answer', () => {
  test.use({ appOptions: { script: 'tool:bash:{"command":"echo hi"},ok' } });

  test('Allow returns the focus to the composer, and so does Regenerate', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('run something');
    await app.page.getByTestId('approval-allow-once').click();
    await chat.waitForTurnEnd();
    await expect(chat.input).toBeFocused();
    await chat.lastAssistant().getByTestId('regenerate').click();
    await chat.waitForTurnEnd();
    await expect(chat.input).toBeFocused();
  });
});

test('a long fault script is cut in the Simulator badge, and its × stays in the window', async ({ app }) => {
  const long = Array(60).fill('503').join(',');
  await app.page.getByTestId('nav-settings').click();
  const script = app.page.getByTestId('settings-simulator-script');
  await script.fill(long);
  await script.press('Enter');
  await expect(app.page.getByTestId('settings-saved')).toContainText('Saved');
  await app.page.getByTestId('nav-chat').click();
  const badge = app.page.getByTestId('simulator-badge');
  await expect(badge.getByTestId('simulator-badge-script')).toHaveAttribute('title', long);
  await expect(app.page.getByTestId('simulator-script-clear')).toBeInViewport({ ratio: 1 });
  await app.page.getByTestId('simulator-script-clear').click();
  await expect(badge.getByTestId('simulator-badge-script')).toHaveCount(0);
});

test('9: the Simulator badge names a fault script that survived a restart, and clears it', async ({ app }) => {
  await app.page.getByTestId('nav-settings').click();
  const script = app.page.getByTestId('settings-simulator-script');
  await script.fill('503*');
  await script.press('Enter');
  await expect(app.page.getByTestId('settings-saved')).toContainText('Saved');
  const page = await app.restart();
  const badge = page.getByTestId('simulator-badge');
  await expect(badge).toContainText('503*');
  await page.getByTestId('simulator-script-clear').click();
  await expect(badge).not.toContainText('503*');
  const chat = new ChatPage(page);
  await chat.prompt('answer me');
  await chat.waitForTurnEnd();
  expect((await app.requests()).map((r) => r.step)).toEqual(['ok']);
});

test.describe('6: Resend after a cancelled retry', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=300'], script: '503*' } });

  test('the replaced version is one click away, and History shows every failed chain and counts what it shows', async ({
    app,
  }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('the question');
    await expect(chat.erroredCards.last()).toHaveAttribute('data-status', 'failed');
    await chat.erroredCards.last().getByTestId('card-retry').click();
    const banner = new RetryBanner(app.page);
    await expect(banner.root).toBeVisible();
    await banner.cancel.click();
    await expect(chat.erroredCards.last()).toHaveAttribute('data-outcome', 'cancelled');
    await app.setScript('');
    await chat.erroredCards.last().getByTestId('card-resend').click();
    await chat.waitForTurnEnd();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.erroredCards).toHaveCount(0);
    await expect(app.page.getByTestId('sidebar-errored-badge')).toContainText('2 errored');
    // The message names its versions; the earlier one holds both failed chains, offering nothing to act on.
    const versions = chat.userMessages.last().getByTestId('branch-versions');
    await expect(versions).toHaveText('2 / 2');
    await chat.userMessages.last().getByTestId('branch-previous').click();
    await expect(chat.userMessages.last().getByTestId('branch-versions')).toHaveText('1 / 2');
    await expect(chat.erroredCards).toHaveCount(2);
    await expect(chat.assistantMessages).toHaveCount(0);
    await expect(app.page.getByTestId('card-retry')).toHaveCount(0);
    await chat.userMessages.last().getByTestId('branch-next').click();
    await expect(chat.erroredCards).toHaveCount(0);
    await expect(chat.assistantMessages).toHaveCount(1);
    // History: the counts are of what it shows, and the failed chains of the other version are listed.
    await new HistoryPage(app.page).open();
    await app.page.getByTestId('history-session-row').first().getByRole('link').click();
    const detail = app.page.getByTestId('history-detail');
    await expect(detail.getByTestId('history-detail-counts')).toContainText('1 of 2 turns shown');
    await expect(detail.getByTestId('history-detail-counts')).toContainText('2 errored');
    await expect(detail.getByTestId('message-user')).toHaveCount(1);
    await expect(detail.getByTestId('history-other-versions').getByTestId('errored-turn-card')).toHaveCount(2);
    await expect(detail.getByTestId('errored-turn-card')).toHaveCount(2);
    expect(await axeViolations(app.page)).toEqual([]);
    // Its switcher shows the earlier version in place: both chains on it, none left below.
    await detail.getByTestId('branch-previous').click();
    await expect(detail.getByTestId('history-other-versions')).toHaveCount(0);
    await expect(detail.getByTestId('errored-turn-card')).toHaveCount(2);
    await expect(detail.getByTestId('history-detail-counts')).toContainText('1 of 2 turns shown');
  });
});
