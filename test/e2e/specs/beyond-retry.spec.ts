// Beyond retrying, through the real UI (docs/retry-policy.md): a usage limit switches to the
// fallback model chosen in Settings and the banner says so; offline, the countdown stops and the
// retry goes as soon as the network is back; a kill -9 in the middle of a backoff leaves a card on
// the next start whose Retry now finishes the same chain; a failed chain's card says what its
// attempts cost; a prompt held for a rate limit shows its message with the wait under it. Each
// scenario also checks what the simulator received and what SQLite holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatorServer } from '../../../src/main/node/simulator/simulator-server';
import { anthropicThroughSimulator } from '../fixtures/anthropic-simulator';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { erroredTurns } from '../fixtures/history-db';
import { axeViolations } from '../fixtures/axe';
import { EVERY_LANGUAGE_AND_SCHEME, SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { GRACE_MS, sleepUntil } from '../fixtures/quiet-window';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

/** The fallback list as the app saved it in the data folder's settings.json. */
function savedFallback(dataDir: string): string[] {
  const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
    providers?: { fallback?: { model: string }[] };
  };
  return (saved.providers?.fallback ?? []).map((entry) => entry.model);
}

test.describe('fallback models', () => {
  test.use({ appOptions: { script: '@resolute-sim-1 usage_limit:0*' } });

  test('chosen in Settings (arrow keys or drag reorder), a usage limit switches to the next model and the banner says so', async ({
    app,
  }) => {
    const page = app.page;
    const settings = new SettingsPage(page);
    await settings.open();
    await settings.fallbackAdd.click();
    await settings.fallbackAdd.click();
    const rows = settings.fallbackRows;
    await expect(rows).toHaveCount(2);
    await expect(settings.fallbackModel(0)).toHaveValue('resolute-sim-1');
    await settings.fallbackModel(0).fill('resolute-sim-3');
    await settings.fallbackModel(0).press('Enter');
    await settings.fallbackModel(1).fill('resolute-sim-2');
    await settings.fallbackModel(1).press('Enter');
    // sim-2 first: focus its handle and press the up arrow.
    await settings.fallbackHandle(1).focus();
    await page.keyboard.press('ArrowUp');
    await expect(settings.fallbackModel(0)).toHaveValue('resolute-sim-2');
    await expect(settings.fallbackHandle(0)).toBeFocused();
    // Dragging a row reorders too: sim-3 onto the first row, then back below it.
    await rows.nth(1).dragTo(rows.nth(0));
    await expect(settings.fallbackModel(0)).toHaveValue('resolute-sim-3');
    await rows.nth(0).dragTo(rows.nth(1));
    await expect(settings.fallbackModel(0)).toHaveValue('resolute-sim-2');
    await expect(settings.fallbackError).toHaveCount(0);
    await expect.poll(() => savedFallback(app.dataDir)).toEqual(['resolute-sim-2', 'resolute-sim-3']);

    const chat = new ChatPage(page);
    await chat.open();
    const banner = new RetryBanner(page);
    await chat.prompt('over the limit');
    await expect(chat.lastAssistant()).toContainText('Simulated reply');
    await expect(banner.root).toContainText('Switched to resolute-sim-2 (usage limit on resolute-sim-1)');
    await expect(chat.lastReply().answeredBy).toHaveText('resolute-sim-2');
    // The header's model field shows the model the session talks to now; the switch is a row of the chat.
    await expect(chat.modelPicker).toHaveValue('resolute-sim-2');
    const switchRow = chat.modelSwitchRows;
    await expect(switchRow).toHaveText('Switched to resolute-sim-2 (usage limit on resolute-sim-1)');
    expect((await app.requests()).map((r) => r.model)).toEqual(['resolute-sim-1', 'resolute-sim-2']);

    // The switch holds: the next prompt goes to sim-2 at once, and the banner clears.
    await chat.prompt('still switched');
    await expect(chat.assistantMessages).toHaveCount(2);
    await expect(banner.root).toBeHidden();
    await expect(switchRow).toHaveCount(1);
    expect((await app.requests()).map((r) => r.model)).toEqual(['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-2']);
  });
});

test.describe('offline', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=2000'] } });

  test('a connection failure while offline stops the countdown, keeps the attempt, and retries when back', async ({
    app,
  }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await app.setOffline(true);
    await chat.prompt('no network');
    const text = banner.text;
    await expect(text).toHaveText('Offline — waiting for the network (retry 1/2 kept)');
    const pausedAt = Date.now();
    await expect(banner.cancel).toBeVisible();
    // Nothing counts down: past the moment the 2 s backoff would have ended, the text stays and nothing is sent.
    await sleepUntil(app.page, pausedAt + 2000 + GRACE_MS);
    await expect(text).toHaveText('Offline — waiting for the network (retry 1/2 kept)');
    expect(await app.requests()).toHaveLength(0);

    await app.setOffline(false);
    await expect(chat.lastAssistant()).toContainText('Simulated reply');
    await expect(banner.root).toBeHidden();
    expect((await app.requests()).map((r) => r.step)).toEqual(['ok']);
    expect(erroredTurns(app.dataDir)[0]).toMatchObject({ error_category: 'connection', outcome: 'recovered' });
  });
});

test.describe('resume after a restart', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=60000'], script: '503*' } });

  test('kill -9 during a backoff, restart: the card offers the turn and Retry now finishes the same chain', async ({
    app,
  }) => {
    test.skip(app.host !== 'browser', 'kill -9 of the browser-mode process');
    const chat = new ChatPage(app.page);
    await chat.prompt('survive a kill');
    await expect(new RetryBanner(app.page).root).toContainText('Retrying (1/3) in');
    const [before] = erroredTurns(app.dataDir);
    expect(before).toMatchObject({ outcome: 'pending' });

    const page = await app.crashAndRestart();
    const restarted = new ChatPage(page);
    const card = restarted.interruptedCard;
    await expect(card).toContainText('This turn was interrupted while retrying (retry 1/3, 503');
    await expect(restarted.userMessages).toContainText('survive a kill');
    // The offer is the row right after the chain's own card, which offers no Retry or Resend meanwhile.
    const chainCard = restarted.erroredCard();
    await expect(restarted.transcriptRows.last()).toContainText('Retry now');
    await chainCard.expectOutcome('interrupted');
    await expect(chainCard.retry).toHaveCount(0);
    await restarted.interruptedRetry.click();
    await expect(restarted.lastAssistant()).toContainText('Simulated reply');
    await expect(card).toBeHidden();
    await expect
      .poll(() => erroredTurns(app.dataDir)[0])
      .toMatchObject({
        session_id: before.session_id,
        outcome: 'recovered',
      });
    expect((await app.requests()).map((r) => r.step)).toEqual(['ok']);
  });

  test('Discard gives the interrupted turn up: a quiet card that offers no retry, after a reload too', async ({
    app,
  }) => {
    // Six languages and schemes with axe after a restart: over two minutes on a loaded machine.
    test.slow();
    test.skip(app.host !== 'browser', 'kill -9 of the browser-mode process');
    await new ChatPage(app.page).prompt('give this one up');
    await expect(new RetryBanner(app.page).root).toContainText('Retrying (1/3) in');

    const page = await app.crashAndRestart();
    const chat = new ChatPage(page);
    await expect(chat.interruptedCard).toBeVisible();
    await chat.interruptedDiscard.click();
    await expect(chat.interruptedCard).toBeHidden();
    for (const shown of [chat, await reloaded(page)]) {
      const card = shown.erroredCard();
      await expect(card.title).toHaveText('Discarded');
      await expect(card.decision).toContainText('you discarded it');
      await expect(card.errorBadge).toHaveCount(0);
      await expect(card.retry).toHaveCount(0);
      await expect(card.resend).toHaveCount(0);
      await expect(card.continueButton).toHaveCount(0);
    }
    expect(await app.requests()).toEqual([]);
    await shootEach(page, 'interrupted-discarded', async (language) => {
      await expect(chat.erroredCard().title).toHaveText(DISCARDED[language]);
      return chat.erroredCard().root;
    });
  });
});

const DISCARDED = { en: 'Discarded', ja: '破棄しました', ko: '버림' };

/**
 * In each language and scheme, the chat shown: `shown` waits for what is to be seen and gives it;
 * axe checks the page, and its screenshot goes to test-results/screens as `<name>-<language>-<scheme>`.
 */
async function shootEach(page: Page, name: string, shown: (language: 'en' | 'ja' | 'ko') => Promise<Locator>) {
  const settings = new SettingsPage(page);
  const chat = new ChatPage(page);
  for (const [language, scheme] of EVERY_LANGUAGE_AND_SCHEME) {
    await settings.open();
    await settings.setLanguage(language);
    await chat.open();
    await page.emulateMedia({ colorScheme: scheme });
    const target = await shown(language);
    expect(await axeViolations(page)).toEqual([]);
    await target.screenshot({ path: `${SCREENS}/${name}-${language}-${scheme}.png` });
  }
}

/** The same chat after a reload of the page. */
async function reloaded(page: Page): Promise<ChatPage> {
  await page.reload();
  return new ChatPage(page);
}

test.describe('what failures cost', () => {
  const sim = new SimulatorServer({ script: 'stream_error*', chunkDelayMs: 1 });
  anthropicThroughSimulator(sim, ['retry.baseDelayMs=50', 'retry.maxRetries=2']);

  test('the failed card says how many tokens the attempts used and what they cost', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('this fails three times');
    const card = chat.erroredCard();
    await card.expectOutcome('exhausted');
    await expect(card.failureCost).toHaveText(
      /^The first try and 2 retries failed, using \d[\d,]* input and 3 output tokens \(~\$0\.\d+\)$/,
    );
    expect(sim.requests.map((r) => r.api)).toEqual(['anthropic', 'anthropic', 'anthropic']);

    const history = new HistoryPage(app.page);
    await history.open();
    await history.openCostPanel();
    const total = history.costTotal;
    await expect(total).toContainText('3');
    await expect(total).toContainText('$0.');
    await expect(history.costCategories).toHaveAttribute('data-category', 'overloaded');
  });
});

test.describe('a prompt held for a rate limit', () => {
  test.use({ appOptions: { script: '429:120' } });

  test('shows the message with the wait under it, titled and listed', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('first');
    await chat.erroredCard().expectStatus('failed');
    const shell = new AppShell(app.page);
    await shell.newChat.click();
    await chat.input.fill('the held question');
    await chat.send.click();
    await expect(chat.pacingNotice).toBeVisible();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.userMessages.last()).toContainText('the held question');
    await expect(chat.title).toHaveText('the held question');
    await expect(shell.sessions.filter({ hasText: 'the held question' })).toHaveCount(1);
    // Stop gives the text back unsent: the bubble goes, the composer holds it.
    await chat.stop.click();
    await expect(chat.input).toHaveValue('the held question');
    await expect(chat.userMessages).toHaveCount(0);
  });
});

test.describe('a prompt held for a usage limit', () => {
  test.use({ appOptions: { script: 'usage_limit:7200' } });

  test('says "usage limit" and the clock time it ends, never thousands of seconds', async ({ app }) => {
    // Six languages and schemes with axe: over two minutes on a loaded machine.
    test.slow();
    const page = app.page;
    const chat = new ChatPage(page);
    await chat.prompt('first');
    await chat.erroredCard().expectStatus('failed');
    await new AppShell(page).newChat.click();
    await chat.input.fill('held by the usage limit');
    await chat.send.click();
    await expect(chat.pacingNotice).toContainText(
      /^Waiting for the usage limit to reset: until \d\d:\d\d \((in 2 h|in 1 h 59 min)\)Send anyway$/,
    );
    await shootEach(page, 'pacing-usage-limit', async (language) => {
      await expect(chat.pacingNotice).toContainText(USAGE_LIMIT[language]);
      return chat.pacingNotice;
    });
  });
});

const USAGE_LIMIT = { en: 'usage limit', ja: '利用上限', ko: '사용 한도' };
