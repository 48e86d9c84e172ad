// A slow model is not a dead one (docs/retry-policy.md, "Liveness", "Two clocks"), as a person sees
// it: the simulator reached as an OpenAI-compatible server on 127.0.0.1 is a local server, and its
// `prefill` step says nothing at all for seconds — past retry.timeoutMs — before it answers. The chat
// shows "Processing the prompt… N s", then the reply, and the server got one request; llama.cpp's
// progress shows as a share; Stop ends the wait. Keep-alive comments keep a cloud request alive.
// Screenshots of the notice in en/ja/ko, light and dark (each checked by axe-core), go to
// test-results/screens.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import type { AppHandle } from '../fixtures/app';

/** The notice's words before the seconds, by language. */
const PROCESSING = {
  en: 'Processing the prompt…',
  ja: 'プロンプトを処理しています…',
  ko: '프롬프트를 처리하는 중…',
} as const;

// 1.5 s of silence would end a cloud request; a local server has its first-token wait instead.
test.use({ appOptions: { set: ['retry.timeoutMs=1500', 'retry.baseDelayMs=50'] } });

async function useLocalServer(app: AppHandle, language: keyof typeof PROCESSING = 'en'): Promise<ChatPage> {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.useOpenAiCompatible(app.simulatorUrl);
  if (language !== 'en') await settings.setLanguage(language);
  const chat = new ChatPage(app.page);
  await chat.open();
  return chat;
}

test('a local server silent past the timeout: "Processing the prompt… N s", then the reply, one request', async ({
  app,
}) => {
  const chat = await useLocalServer(app);
  await app.setScript('prefill:7');
  await chat.prompt('Read this long document');
  const notice = chat.promptWait;
  const text = chat.promptWaitText;
  await expect(notice).toBeVisible({ timeout: 10_000 });
  await expect(text).toHaveText(/^Processing the prompt… \d+ s$/);
  // The seconds count on while the server works.
  const first = await text.textContent();
  await expect(text).not.toHaveText(first ?? '');
  await expect(chat.promptWaitStop).toBeVisible();
  await expect(chat.lastAssistant()).toContainText('Simulated reply', { timeout: 15_000 });
  await expect(notice).toBeHidden();
  await chat.waitForTurnEnd();
  // Nothing retried: one request, no failed card, no retry banner.
  expect((await app.requests()).map((r) => r.step)).toEqual(['prefill:7']);
  await expect(chat.erroredCards).toHaveCount(0);
  await expect(new RetryBanner(app.page).root).toBeHidden();
});

test("llama.cpp's prompt progress shows as a share", async ({ app }) => {
  const chat = await useLocalServer(app);
  await app.setScript('progress:8');
  await chat.prompt('A long context');
  const text = chat.promptWaitText;
  await expect(text).toHaveText(/^Processing the prompt… \d+ s \(\d+ %\)$/, { timeout: 10_000 });
  await expect(chat.lastAssistant()).toContainText('Simulated reply', { timeout: 15_000 });
  await expect(text).toBeHidden();
  expect(await app.requests()).toHaveLength(1);
});

test('Stop during the wait ends the turn: nothing retried, and the next prompt is answered', async ({ app }) => {
  const chat = await useLocalServer(app);
  await app.setScript('prefill:120');
  await chat.prompt('Never mind');
  const notice = chat.promptWait;
  await expect(notice).toBeVisible({ timeout: 10_000 });
  await chat.promptWaitStop.click();
  await expect(notice).toBeHidden();
  await expect(chat.stop).toBeHidden();
  await expect(new RetryBanner(app.page).root).toBeHidden();
  await chat.prompt('Hello again');
  await expect(chat.lastAssistant()).toContainText('Simulated reply: I received "Hello again"');
  expect((await app.requests()).map((r) => r.step)).toEqual(['prefill:120', 'ok']);
});

test('the first-token wait is set per server beside the local model fields; 0 minutes is refused', async ({ app }) => {
  const settings = new SettingsPage(app.page);
  await settings.open();
  await settings.useOpenAiCompatible(app.simulatorUrl);
  const wait = settings.localFirstTokenWait;
  await expect(wait).toHaveValue('');
  await expect(settings.localFirstTokenWaitHint).toBeVisible();
  await wait.fill('0');
  await wait.press('Enter');
  await expect(wait).toHaveAttribute('aria-invalid', 'true');
  await wait.fill('25');
  await wait.press('Enter');
  await expect(wait).not.toHaveAttribute('aria-invalid');
  await expect(settings.saved).toContainText('Saved');
  await app.page.reload();
  await settings.open();
  await expect(settings.localFirstTokenWait).toHaveValue('25');
  await settings.localFirstTokenWait.scrollIntoViewIfNeeded();
  await app.page.screenshot({ path: `${SCREENS}/local-first-token-wait-en-light.png` });
});

test('keep-alive comments past the timeout keep a cloud request: the reply, one request', async ({ app }) => {
  // The built-in simulator stands in for a cloud provider: 1.5 s of silence would end its request.
  await app.setScript('keepalive:4');
  const chat = new ChatPage(app.page);
  await chat.prompt('Queued upstream');
  await expect(chat.lastAssistant()).toContainText('Simulated reply', { timeout: 15_000 });
  await chat.waitForTurnEnd();
  expect((await app.requests()).map((r) => r.step)).toEqual(['keepalive:4']);
  await expect(chat.erroredCards).toHaveCount(0);
  await expect(chat.promptWait).toHaveCount(0);
});

test.describe('screenshots of the notice', () => {
  for (const [language, scheme] of [
    ['en', 'light'],
    ['ja', 'light'],
    ['ko', 'light'],
    ['en', 'dark'],
    ['ja', 'dark'],
  ] as const) {
    test(`"Processing the prompt…" in ${language} (${scheme})`, async ({ app }) => {
      await app.page.emulateMedia({ colorScheme: scheme });
      const chat = await useLocalServer(app, language);
      await expect(new AppShell(app.page).document).toHaveAttribute('lang', language);
      await app.setScript('progress:60');
      await chat.prompt('A long context');
      const text = chat.promptWaitText;
      await expect(text).toContainText(PROCESSING[language], { timeout: 10_000 });
      await expect(text).toContainText('%');
      // The notice stands where the reply will: no empty "Writing…" bubble above it.
      await expect(chat.assistantMessages).toHaveCount(0);
      await app.page.screenshot({ path: `${SCREENS}/prompt-wait-${language}-${scheme}.png` });
      expect(await axeViolations(app.page)).toEqual([]);
      await chat.promptWaitStop.click();
      await expect(text).toBeHidden();
    });
  }
});
