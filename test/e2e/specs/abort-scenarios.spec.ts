// The design card's "Playwright drives end-to-end abort scenarios": each scenario asserts what
// the person sees, what the simulator received (request counts and timing) and what the
// history database holds afterwards; a cancelled chain's Markdown export counts its retries as its
// card does. Runs in the browser project everywhere and in the Electron project where its binary
// exists.
import { readFileSync } from 'node:fs';
import { test, expect } from '../fixtures/app';
import { CancelRace, type RaceRound } from '../fixtures/cancel-race';
import { assistantTurns, erroredTurns, lastRetryAt, retryWaitSeconds } from '../fixtures/history-db';
import { GRACE_MS, sleepUntil } from '../fixtures/quiet-window';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import { HistoryPage } from '../pages/history-page';

/** The backoff of the scenarios that watch for a retry that must not come: it would go out this long after the failure. */
const BACKOFF_MS = 1000;

test.describe('during a long backoff', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=4000'], script: '503*' } });

  test('Cancel removes the banner, sends nothing more and stores the turn as cancelled', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('cancel me');
    await expect(banner.root).toContainText('Retrying (1/3) in');
    await banner.cancel.click();
    await expect(banner.root).not.toContainText('Retrying');
    await expect(chat.erroredCards.last()).toContainText('503 Service Unavailable');
    // The cancelled retry was due at retryAt: watch until just past it. It must never go out.
    await sleepUntil(app.page, lastRetryAt(app.dataDir) + GRACE_MS);
    expect(await app.requests()).toHaveLength(1);
    const rows = erroredTurns(app.dataDir);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      stop_reason: 'error',
      error_category: 'server_error',
      outcome: 'cancelled',
      final_error: 'Retry cancelled',
    });
  });

  test('Esc cancels the retry; once the banner is gone, Esc stops a streaming reply again', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('escape me');
    await expect(banner.root).toContainText('Retrying (1/3)');
    await app.page.keyboard.press('Escape');
    await expect(banner.root).not.toContainText('Retrying');
    expect(erroredTurns(app.dataDir)[0]).toMatchObject({ outcome: 'cancelled', final_error: 'Retry cancelled' });

    await app.setScript('slow');
    await chat.prompt('now a long reply');
    await expect(chat.lastAssistant()).toContainText('Simulated');
    await app.page.keyboard.press('Escape');
    await expect(chat.stop).toBeHidden();
    const requests = await app.requests();
    expect(requests.map((r) => r.step)).toEqual(['503', 'slow']);
    expect(assistantTurns(app.dataDir).at(-1)?.stop_reason).toBe('aborted');
  });

  test("while the retry waits the banner's Cancel is the one control: the composer shows no Stop", async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.input.fill('stop me');
    await chat.input.press('Enter');
    await expect(banner.root).toContainText('Retrying (1/3) in');
    // One button for one thing (issue 30): Cancel in the banner; the composer only shows it is busy.
    await expect(banner.cancel).toBeVisible();
    await expect(chat.stop).toHaveCount(0);
    await expect(chat.send).toBeDisabled();
    await banner.cancel.click();
    await expect(banner.root).not.toContainText('Retrying');
    await expect(chat.input).toBeFocused();
    await sleepUntil(app.page, lastRetryAt(app.dataDir) + GRACE_MS);
    expect(await app.requests()).toHaveLength(1);
    expect(erroredTurns(app.dataDir)[0]).toMatchObject({ outcome: 'cancelled', final_error: 'Retry cancelled' });
  });
});

test.describe('a retried attempt that streams', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=1500'], script: '503,slow' } });

  test("Stop is the composer's again once the retried attempt streams, and Esc stops it", async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('wait, then stream');
    await expect(banner.root).toContainText('Retrying (1/3) in');
    await expect(chat.stop).toHaveCount(0);
    await expect(chat.lastAssistant()).toContainText('Simulated', { timeout: 10_000 });
    await expect(chat.stop).toBeVisible();
    await expect(banner.cancel).toBeHidden();
    await app.page.keyboard.press('Escape');
    await expect(chat.stop).toHaveCount(0);
    expect((await app.requests()).map((r) => r.step)).toEqual(['503', 'slow']);
    await expect.poll(() => assistantTurns(app.dataDir).at(-1)?.stop_reason).toBe('aborted');
  });
});

test.describe('with a 1 s backoff', () => {
  test.use({ appOptions: { set: [`retry.baseDelayMs=${BACKOFF_MS}`] } });

  test('Stop during a streaming reply stops it at once, keeps the partial reply as aborted, no retry', async ({
    app,
  }) => {
    await app.setScript('slow');
    const chat = new ChatPage(app.page);
    await chat.prompt('stream for a while');
    await expect(chat.lastAssistant()).toContainText('Simulated');
    const clickedAt = Date.now();
    await chat.stop.click();
    await expect(chat.stop).toBeHidden();
    // A retry, if one were wrongly started, would go out BACKOFF_MS after the stop.
    await sleepUntil(app.page, clickedAt + BACKOFF_MS + GRACE_MS);
    expect(await app.requests()).toHaveLength(1);
    await expect(new RetryBanner(app.page).root).toBeHidden();
    const turns = assistantTurns(app.dataDir);
    expect(turns).toHaveLength(1);
    expect(turns[0].stop_reason).toBe('aborted');
    expect(turns[0].text).toContain('Simulated reply');
  });

  test('auto-retry off in Settings: a 503 shows at once, no retry, and it stays off after a restart', async ({
    app,
  }) => {
    const settings = new SettingsPage(app.page);
    await settings.open();
    await expect(settings.autoRetry).toBeChecked();
    await settings.autoRetry.click();
    await expect(settings.autoRetry).not.toBeChecked();
    await app.setScript('503*');
    const chat = new ChatPage(app.page);
    await chat.open();
    await chat.prompt('no retries please');
    await expect(chat.erroredCards.last()).toContainText('503 Service Unavailable');
    await expect(new RetryBanner(app.page).root).toBeHidden();
    // With auto-retry on, the retry would go out BACKOFF_MS after the failure.
    await sleepUntil(app.page, (await app.requests())[0].at + BACKOFF_MS + GRACE_MS);
    expect(await app.requests()).toHaveLength(1);
    expect(erroredTurns(app.dataDir)[0]).toMatchObject({ outcome: 'disabled' });

    const page = await app.restart();
    const again = new SettingsPage(page);
    await again.open();
    await expect(again.autoRetry).not.toBeChecked();
  });
});

test.describe('counting through every attempt', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=700'], script: '503*' } });

  test('max retries exhausted: (1/3), (2/3), (3/3), then the final failure; exactly 4 requests', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    const shown = await banner.recordTexts();
    await chat.prompt('this will fail');
    await expect(banner.root).toContainText('Retry failed after 3 retries: 503 Service Unavailable');
    // The banner counted up to (3/3), never back (kept by the page). A page starved for longer than
    // the first 0.7 s wait applies two attempts' events in one frame: (1/3) may never be drawn, so the
    // four stored attempts below say the rest.
    const counts = (await shown()).map((text) => Number(/Retrying \((\d)\/3\)/.exec(text)?.[1] ?? 0));
    const drawn = [...new Set(counts.filter((n) => n > 0))];
    expect(drawn).toEqual([...drawn].sort());
    expect(drawn.at(-1)).toBe(3);
    const requests = await app.requests();
    expect(requests).toHaveLength(4);
    // 0.7 s, 1.4 s, 2.8 s of backoff between them (exponential 2^n, docs/retry-policy.md).
    const gaps = requests.slice(1).map((r, i) => r.at - requests[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(650);
    expect(gaps[1]).toBeGreaterThanOrEqual(1350);
    expect(gaps[2]).toBeGreaterThanOrEqual(2750);
    const rows = erroredTurns(app.dataDir);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.outcome === 'exhausted')).toBe(true);
  });
});

test.describe('recovering', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=1000'], script: '503,503,ok' } });

  test('success after retries: (1/3) then (2/3), the banner clears and the answer shows', async ({ app }) => {
    const chat = new ChatPage(app.page);
    const banner = new RetryBanner(app.page);
    await chat.prompt('third time lucky');
    await expect(banner.root).toContainText('Retrying (1/3)');
    await expect(banner.root).toContainText('Retrying (2/3)');
    await expect(chat.lastAssistant()).toContainText('Simulated reply: I received "third time lucky"', {
      timeout: 15_000,
    });
    await expect(banner.root).toBeHidden();
    expect(await app.requests()).toHaveLength(3);
    await expect.poll(() => erroredTurns(app.dataDir).map((r) => r.outcome)).toEqual(['recovered', 'recovered']);
  });
});

test.describe('with a 2 s maximum delay', () => {
  test.use({ appOptions: { set: ['retry.maxDelayMs=2000'], script: '429:3' } });

  test('a Retry-After above the max delay fails at once with a message naming the wait', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('rate limited');
    const banner = new RetryBanner(app.page);
    await expect(banner.root).toContainText('provider asked to wait 3 s');
    // A retry, if one were wrongly made, would go out after the 3 s the provider asked for (or
    // the 2 s cap, or the 2 s backoff): watch until just past that.
    await sleepUntil(app.page, (await app.requests())[0].at + 3000 + GRACE_MS);
    expect(await app.requests()).toHaveLength(1);
    expect(erroredTurns(app.dataDir)[0]).toMatchObject({ error_category: 'rate_limit', outcome: 'exhausted' });
    // The failed card says why from the decision record's numbers, not from its English reason.
    await expect(chat.erroredCards.last()).toContainText(
      'Not retried: the provider asked to wait 3 s, above the 2 s maximum delay',
    );
  });
});

test('a usage limit with a second API key retries at once on the other key', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  // The simulator takes no keys: reach it as an OpenAI-compatible server, which does.
  await settings.useOpenAiCompatible(app.simulatorUrl);
  // Two keys of the person's own: the built-in key is never a key to switch to.
  await settings.addKey('openai-compatible', 'sim-first-key-0001');
  await expect(settings.providerKeys('openai-compatible')).toContainText('0001');
  await settings.addKey('openai-compatible', 'sim-second-key-0002');
  await expect(settings.providerKeys('openai-compatible')).toContainText('0002');
  await app.setScript('usage_limit:30,ok');
  const chat = new ChatPage(app.page);
  await chat.open();
  await chat.prompt('limited');
  await expect(chat.lastAssistant()).toContainText('Simulated reply');
  const requests = await app.requests();
  expect(requests).toHaveLength(2);
  expect(requests[0].apiKey).toBe('sim-first-key-0001');
  expect(requests[1].apiKey).toBe('sim-second-key-0002');
  // Not after the 30 s the limit named: the other key is tried at once, by the wait the app
  // scheduled (a 10 s ceiling on the reply stood for this, and a loaded machine could pass it).
  expect(retryWaitSeconds(app.dataDir)).toEqual([0]);
  // The reply shows while it streams; the chain is closed when the message ends.
  await expect.poll(() => erroredTurns(app.dataDir)[0]?.outcome).toBe('recovered');
  expect(erroredTurns(app.dataDir)[0]).toMatchObject({ error_category: 'usage_limit' });
});

test.describe('after a restart', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503,ok' } });

  test('history still shows the errored turns of the previous run', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('remember this failure');
    await expect(chat.lastAssistant()).toContainText('Simulated reply');
    const page = await app.restart();
    const history = new HistoryPage(page);
    await history.open();
    await expect(history.sessions.first()).toContainText('remember this failure');
    await history.erroredOnly.click();
    await expect(history.erroredTurns.first()).toContainText('503 Service Unavailable');
  });
});

test.describe('racing the retry timer', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=1000'] } });

  // Each round is one prompt whose retry is due 1 s after its 503; the checks of a round
  // (cancel-race.ts) fail it unless exactly one of cancelled or retried shows in the request log,
  // the chat, the banner and the history. The first round clicks well ahead of the retry and must
  // cancel; the last clicks after the retry went out and must not; the rounds in between aim at
  // the last 45 ms, where which one wins depends on timing and either is right. A round whose click
  // landed after the banner had gone, or a first round that could not click well ahead or whose
  // click reached the app late (a slow machine), is run again (cancel-race.ts).
  test('a cancel in the last moments before the retry fires: exactly one of cancelled or retried', async ({ app }) => {
    const race = new CancelRace(app);
    await race.prepare();
    const early = await race.clickBefore(300, { mustCancel: true });
    expect(early.outcome).toBe('cancelled');
    const close: RaceRound[] = [];
    for (const lead of [45, 30, 15, 5]) close.push(await race.clickBefore(lead));
    const late = await race.clickAfterRetryWentOut();
    expect(late.outcome).toBe('recovered');
    for (const round of [early, ...close, late])
      test.info().annotations.push({ type: 'race round', description: JSON.stringify(round) });
  });
});

test.describe('a cancelled chain', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=400'], script: '503*' } });

  test('the Markdown export counts the retries as the card does', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('cancel me late');
    const banner = new RetryBanner(app.page);
    await expect(banner.root).toContainText('(3/3)');
    await banner.cancel.click();
    const card = chat.erroredCard();
    await card.expectOutcome('cancelled');
    await expect(card.root).toContainText('The first try and 2 retries failed');
    const history = new HistoryPage(app.page);
    await history.open();
    await history.sessions.first().getByRole('link').click();
    const download = app.page.waitForEvent('download');
    await history.exportMarkdown.click();
    const markdown = readFileSync((await (await download).path())!, 'utf8');
    expect(markdown).toContain('**cancelled**: the first try and 2 retries failed');
    expect(markdown).not.toContain('3 retries');
  });
});
