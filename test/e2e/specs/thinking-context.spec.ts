// Thinking and context through the real UI against the simulator (docs/thinking-and-context.md):
// the chat header's Thinking control changes the next request's reasoning_effort (the simulator's
// request log) and is remembered per model; a prompt that mentions thinking streams a thinking
// block that is open while the model thinks, collapses to "Thought for N s" when the answer
// starts, expands, and is still there after a reload; the Context meter's value after a reply, its
// breakdown, and the session's tokens and cost; the "Using AGENTS.md" chip and this chat's own
// instructions. Screenshots in en/ja/ko, light and dark.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { EVERY_LANGUAGE_AND_SCHEME, SCREENS } from '../fixtures/screens';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { SettingsPage } from '../pages/settings-page';

/**
 * Records each state the thinking block is seen in (the stream is fast: polling could miss one).
 * A script string: this file is type-checked without the DOM's types.
 */
const WATCH_THINKING = `(() => {
  const seen = [];
  window.thinkingSeen = seen;
  new MutationObserver(() => {
    const block = document.querySelector('[data-testid="thinking"]');
    if (!block) return;
    const toggle = block.querySelector('[data-testid="thinking-toggle"]');
    const state = block.getAttribute('data-state') + ':' + (toggle && toggle.getAttribute('aria-expanded'));
    if (seen[seen.length - 1] !== state) seen.push(state);
  }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
})()`;

const watchThinking = (page: Page): Promise<unknown> => page.evaluate(WATCH_THINKING);
const thinkingSeen = (page: Page): Promise<string[]> => page.evaluate('window.thinkingSeen');

test('the Thinking control sets the next request’s level, remembered per model', async ({ app }) => {
  const chat = new ChatPage(app.page);
  const level = chat.thinkingControl;
  await expect(level).toHaveValue('off');
  await level.selectOption('high');
  await chat.prompt('hello');
  await chat.waitForTurnEnd();
  expect((await app.requests()).at(-1)!.reasoning).toEqual({ reasoning_effort: 'high' });

  await chat.modelPicker.fill('resolute-sim-2');
  await chat.modelPicker.press('Enter');
  await expect(level).toHaveValue('high');
  await level.selectOption('low');
  await chat.modelPicker.fill('resolute-sim-1');
  await chat.modelPicker.press('Enter');
  await expect(level).toHaveValue('high');
});

test('a thinking block streams open, collapses when the answer starts, expands, and stays', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await watchThinking(app.page);
  await chat.prompt('Think about why the sky is blue.');
  await chat.waitForTurnEnd();
  const reply = chat.lastReply();
  const toggle = reply.thinkingToggle;
  await expect(toggle).toHaveText(/Thought for \d+ s/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(reply.thinkingText).toBeHidden();
  const seen = await thinkingSeen(app.page);
  expect(seen[0]).toBe('thinking:true');
  expect(seen.at(-1)).toBe('done:false');

  await toggle.click();
  await expect(reply.thinkingText).toContainText('The person asked: "Think about why the sky is blue."');
  await expect(reply.text).toContainText('Simulated reply');

  await app.page.reload();
  const stored = new ChatPage(app.page).lastReply().thinkingToggle;
  await expect(stored).toHaveText(/Thought for \d+ s/);
  await expect(stored).toHaveAttribute('aria-expanded', 'false');

  // The History's detail shows it too, with the session's total.
  const history = new HistoryPage(app.page);
  await history.open();
  await history.sessionLinks.click();
  await expect(history.detailThinkingToggle).toHaveText(/Thought for \d+ s/);
  await expect(history.detailSessionCost).toHaveText(/^Session: \d+ tokens · cost unknown$/);
});

test('the Context meter reads the last request against the window; the session’s tokens and cost beside it', async ({
  app,
}) => {
  const chat = new ChatPage(app.page);
  const meter = chat.contextMeter;
  await expect(meter).toHaveAttribute('aria-valuetext', '0 / 8.2k tokens, 0 %');
  await chat.prompt('hello');
  await chat.waitForTurnEnd();
  await expect(meter).toHaveAttribute('aria-valuetext', /^\d+ \/ 8\.2k tokens, \d+ %$/);
  await expect(meter).toHaveAttribute('aria-valuemax', '8192');
  expect(Number(await meter.getAttribute('aria-valuenow'))).toBeGreaterThan(50);
  await expect(meter).toContainText(/tokens, \d+ %/);
  await expect(chat.sessionCost).toHaveText(/^Session: \d+ tokens · cost unknown$/);

  await chat.contextDetails.click();
  const breakdown = chat.contextBreakdown;
  await expect(breakdown).toContainText('System prompt and instructions');
  await expect(breakdown).toContainText('Tool results');
  // One exchange has nothing older to summarise; after a second one it has.
  await expect(chat.compactNow).toBeDisabled();
  await app.page.keyboard.press('Escape');
  await expect(breakdown).toBeHidden();
  await chat.prompt('and again');
  await chat.waitForTurnEnd();
  await expect(chat.sessionCost).toHaveText(/^Session: \d+ tokens · cost unknown$/);
  await chat.contextDetails.click();
  await chat.compactNow.click();
  await expect(chat.summarisedNote).toBeVisible({ timeout: 15_000 });
});

test('the chip says AGENTS.md is used and shows it; this chat’s own instructions reach the next request', async ({
  app,
}) => {
  writeFileSync(join(app.workspace, 'AGENTS.md'), '# House rules\nRun `make check` before you say done.\n');
  await app.page.reload();
  const chat = new ChatPage(app.page);
  const chip = chat.instructionsChip;
  await expect(chip).toHaveText('Using AGENTS.md');
  await chip.click();
  await expect(chat.instructionsText).toContainText('Run `make check` before you say done.');
  await chat.instructionsOwn.fill('Answer as a lighthouse keeper.');
  await chat.instructionsSave.click();
  await expect(chip).toContainText('this chat’s own');
  await chat.prompt('hello');
  await chat.waitForTurnEnd();
  const system = String((await app.requests()).at(-1)!.messages.find((m) => m.role === 'system')?.content);
  expect(system).toContain('Answer as a lighthouse keeper.');
  expect(system).toContain('Run `make check` before you say done.');
});

test.describe('the chip’s reads', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=300'] } });

  test('read once a run has ended — a new AGENTS.md shows then — and not at every stored turn', async ({ app }) => {
    const asked: string[] = [];
    // The reads before the prompt went out are the load's (before and after the snapshot names the chat).
    let atLoad: number | undefined;
    app.page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const text = String(payload);
        if (text.includes('"method":"session.instructions"')) asked.push(text);
        if (text.includes('"method":"session.prompt"')) atLoad ??= asked.length;
      }),
    );
    await app.page.reload();
    const chat = new ChatPage(app.page);
    const chip = chat.instructionsChip;
    await expect(chip).toHaveText('Instructions');
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    writeFileSync(join(app.workspace, 'AGENTS.md'), '# House rules\nKeep it short.\n');
    // The person's turn, the error, the retry's wait and the reply: four stored turns and one run.
    await app.setScript('503,ok');
    await chat.prompt('hello');
    await chat.waitForTurnEnd();
    await expect(chip).toHaveText('Using AGENTS.md');
    expect(atLoad).toBeGreaterThan(0);
    expect(asked).toHaveLength(atLoad! + 1);
  });
});

test('a local server: presets, its models in the picker and Test connection, a per-model output cap', async ({
  app,
}) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.useOpenAiCompatible(app.simulatorUrl);
  await settings.preset('ollama').click();
  await expect(settings.baseUrl).toHaveValue('http://127.0.0.1:11434/v1');
  await settings.useOpenAiCompatible(app.simulatorUrl);
  await expect(settings.modelSuggestions).toHaveCount(3);
  await settings.model.fill('resolute-sim-2');
  await settings.model.press('Enter');
  await settings.testConnection.click();
  await expect(settings.testConnectionModels).toHaveText(
    'The server has: resolute-sim-1, resolute-sim-2, resolute-sim-3.',
  );
  const cap = settings.localMaxTokens;
  await cap.fill('300');
  await cap.press('Enter');
  await expect(settings.saved).toContainText('Saved');
  await app.page.screenshot({ path: `${SCREENS}/local-models-en-light.png`, fullPage: true });
  const chat = new ChatPage(app.page);
  await chat.open();
  await chat.prompt('hello');
  await chat.waitForTurnEnd();
  const sent = (await app.requests()).at(-1)!;
  expect(sent.model).toBe('resolute-sim-2');
  expect(sent.maxTokens).toBe(300);
});

test.describe('screenshots', () => {
  for (const [language, scheme] of EVERY_LANGUAGE_AND_SCHEME) {
    test(`thinking and context in ${language} (${scheme})`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      writeFileSync(join(app.workspace, 'AGENTS.md'), '# House rules\n- Keep replies short.\n- Run the tests first.\n');
      const settings = new SettingsPage(app.page);
      await settings.open();
      await settings.setLanguage(language);
      const chat = new ChatPage(app.page);
      await chat.open();
      await chat.thinkingLevel.selectOption('medium');
      await chat.prompt('Think it over: what is a good name for a cat?');
      await chat.waitForTurnEnd();
      await chat.lastReply().thinkingToggle.click();
      await expect(chat.lastReply().thinkingText).toBeVisible();
      await app.page.screenshot({ path: `${SCREENS}/thinking-${language}-${scheme}.png` });
      await chat.contextDetails.click();
      await expect(chat.contextBreakdown).toBeVisible();
      await app.page.screenshot({ path: `${SCREENS}/context-${language}-${scheme}.png` });
      await app.page.keyboard.press('Escape');
      await chat.instructionsChip.click();
      await expect(chat.instructionsPanel).toBeVisible();
      await app.page.screenshot({ path: `${SCREENS}/instructions-${language}-${scheme}.png` });
    });
  }
});
