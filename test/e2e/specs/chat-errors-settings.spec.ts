// The chat people would choose, part 2 — honest error cards and real provider setup, through the
// real UI against the simulator: a recovered chain is a quiet note without a badge, a 401 is an
// Authentication card whose "Check your API key" lands on that provider's keys, Test connection
// shows the classified answer, a new provider starts on its default model, settings errors use
// the field's label, and the same fault script entered again starts over. Also: the refilled
// composer after a 401 resends once, a stream failure with auto-retry off paints one card state, an
// overflow on a first message says why and puts the text back, and the Simulator badge names its
// script (cut when long, kept across a restart) and clears it.
import { test, expect } from '../fixtures/app';
import { inEachLanguage } from '../fixtures/in-each-language';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

test.describe('recovering after one failure', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503,ok' } });

  test('a recovered chain shows a quiet note, no Error card and no sidebar badge', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('wobble then answer');
    await expect(chat.lastAssistant()).toContainText('wobble then answer');
    const note = chat.recoveredNote;
    await expect(note).toContainText('Recovered after 1 retry');
    await expect(chat.erroredCards).toHaveCount(0);
    const shell = new AppShell(app.page);
    await expect(shell.sessions).toHaveCount(1);
    await expect(shell.erroredBadge).toHaveCount(0);
    await chat.openRecoveredNote();
    const success = chat.recoveredSuccess;
    await expect(success).toContainText('Retry 1');
    await expect(success).toContainText('Succeeded');
    await expect(chat.recoveredSuccessBadges).toHaveCount(0);
  });
});

test('401 from an OpenAI-compatible server: an Authentication card whose link opens that provider keys', async ({
  app,
}) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.useOpenAiCompatible(app.simulatorUrl);
  // A new provider starts on its own default model.
  await expect(settings.model).toHaveValue('default');
  await app.setScript('auth');
  const chat = new ChatPage(app.page);
  await chat.open();
  await chat.prompt('who am I');
  const card = chat.erroredCard();
  await expect(card.category).toHaveText('Authentication');
  await expect(card.root).toContainText('Not retried: this kind of error stops at once');
  await card.checkApiKey.click();
  const heading = settings.providerKeysHeading('openai-compatible');
  await expect(heading).toBeFocused();
  await expect(settings.keyInput('openai-compatible')).toBeVisible();
});

test('Test connection sends one request through the real path and shows the classified result', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.testConnection.click();
  const result = settings.testConnectionResult;
  await expect(result).toContainText('Connected: resolute-sim-1 answered in');
  await app.setScript('auth');
  await settings.testConnection.click();
  await expect(result).toHaveAttribute('data-category', 'auth');
  await expect(result).toContainText('Authentication —');
  expect((await app.requests()).map((r) => r.step)).toEqual(['ok', 'auth']);
  // The simulator takes no key, so it offers no key field.
  await expect(settings.keyInput('simulator')).toHaveCount(0);
  await expect(settings.providerKeys('simulator')).toContainText('The simulator needs no key.');
});

test('a refused setting names the field by its label, and the base URL takes http(s) only', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.provider.selectOption('openai-compatible');
  const baseUrl = settings.baseUrl;
  await baseUrl.fill('ftp://example.com/v1');
  await baseUrl.press('Enter');
  await expect(settings.baseUrlError).toHaveText('Base URL: must be an http:// or https:// URL');
});

test('entering the same fault script again starts it over from its first step', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  const script = settings.simulatorScript;
  await script.fill('503,ok');
  await script.press('Enter');
  await expect(settings.saved).toContainText('Saved');
  await settings.testConnection.click();
  await expect(settings.testConnectionResult).toHaveAttribute('data-category', 'server_error');
  await script.press('Enter');
  await settings.testConnection.click();
  await expect(settings.testConnectionResult).toContainText('Server error');
  // Without the re-arm the second request would have had the script's next step, `ok`.
  expect((await app.requests()).map((r) => r.step)).toEqual(['503', '503']);
});

test('the model picker in the chat header sets the model the next request uses, free text allowed', async ({ app }) => {
  const chat = new ChatPage(app.page);
  const picker = chat.modelPicker;
  await expect(picker).toHaveValue('resolute-sim-1');
  await picker.fill('resolute-sim-2');
  await picker.press('Enter');
  await chat.prompt('which model');
  await expect(chat.lastAssistant()).toContainText('which model');
  expect((await app.requests()).map((r) => r.model)).toEqual(['resolute-sim-2']);
  await expect(picker).toHaveValue('resolute-sim-2');
  const settings = new SettingsPage(app.page);
  await settings.open();
  await expect(settings.model).toHaveValue('resolute-sim-2');
});

test.describe('the refilled composer after an auth failure', () => {
  test.use({ appOptions: { script: 'auth' } });

  test('Enter on the refilled text resends the message once, as Resend does', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('X');
    await chat.erroredCard().expectStatus('failed');
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

test.describe('a stream failure with auto-retry off', () => {
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

test.describe('context overflow on a first message', () => {
  test.use({ appOptions: { script: 'overflow' } });

  test('says the message is too long for this model, puts it back and offers a larger window', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('a very long first message');
    const card = chat.erroredCard();
    await card.expectStatus('failed');
    await expect(card.decision).toContainText('This message is too long for resolute-sim-1 (a window of 8,192 tokens)');
    await expect(chat.input).toHaveValue('a very long first message');
    // One statement of the failure: the card, no red toast repeating it.
    const shell = new AppShell(app.page);
    await expect(shell.notices).toHaveCount(0);
    await card.largerModel.click();
    await expect(chat.modelPicker).toHaveValue('resolute-sim-3');
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
    const card = chat.erroredCard();
    await card.expectStatus('failed');
    await chat.modelPicker.fill('resolute-sim-3');
    await chat.modelPicker.press('Enter');
    await expect(chat.modelPicker).toHaveValue('resolute-sim-3');
    await expect(card.decision).toContainText('This message is too long for resolute-sim-1 (a window of 8,192 tokens)');
  });
});

test('a long fault script is cut in the Simulator badge, and its × stays in the window', async ({ app }) => {
  const long = Array(60).fill('503').join(',');
  const settings = new SettingsPage(app.page);
  await settings.open();
  const script = settings.simulatorScript;
  await script.fill(long);
  await script.press('Enter');
  await expect(settings.saved).toContainText('Saved');
  const shell = new AppShell(app.page);
  await shell.navChat.click();
  await expect(shell.simulatorScript).toHaveAttribute('title', long);
  await expect(shell.simulatorScriptClear).toBeInViewport({ ratio: 1 });
  await shell.simulatorScriptClear.click();
  await expect(shell.simulatorScript).toHaveCount(0);
});

test('the Simulator badge names a fault script that survived a restart, and clears it', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  const script = settings.simulatorScript;
  await script.fill('503*');
  await script.press('Enter');
  await expect(settings.saved).toContainText('Saved');
  const page = await app.restart();
  const shell = new AppShell(page);
  const badge = shell.simulatorBadge;
  await expect(badge).toContainText('503*');
  await shell.simulatorScriptClear.click();
  await expect(badge).not.toContainText('503*');
  const chat = new ChatPage(page);
  await chat.prompt('answer me');
  await chat.waitForTurnEnd();
  expect((await app.requests()).map((r) => r.step)).toEqual(['ok']);
});

test.describe('a fault script that is used up', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'] } });

  test('the Simulator badge stops warning once every step was sent, and warns again when re-armed', async ({ app }) => {
    const settings = new SettingsPage(app.page);
    const armScript = async () => {
      await settings.open();
      await settings.simulatorScript.fill('503');
      await settings.simulatorScript.press('Enter');
      await expect(settings.saved).toContainText('Saved');
      await shell.navChat.click();
    };
    const shell = new AppShell(app.page);
    const badge = shell.simulatorBadge;
    await armScript();
    await expect(badge).toHaveAttribute('data-used-up', 'false');
    await expect(shell.simulatorScript).toHaveText('Fault script: 503');
    const chat = new ChatPage(app.page);
    await chat.prompt('hello');
    await chat.waitForTurnEnd();
    await expect(badge).toHaveAttribute('data-used-up', 'true');
    await expect(shell.simulatorScript).toHaveText('Fault script used up: 503');
    const used = { en: 'Fault script used up: 503', ja: 'スクリプト使用済み: 503', ko: '스크립트 모두 사용됨: 503' };
    await inEachLanguage(app.page, used, (name) =>
      app.page.screenshot({ path: `test-results/screens/fault-script-used-up-${name}.png` }),
    );
    // Entering the same script again re-arms it: the badge warns again.
    await armScript();
    await expect(badge).toHaveAttribute('data-used-up', 'false');
  });
});
