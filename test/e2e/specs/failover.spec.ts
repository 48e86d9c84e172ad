// Failover through the real UI (docs/retry-policy.md, "Failover"): with a fallback list, a model
// that stays overloaded through its retries hands the turn to the next model; the banner and the
// chat's switch row name both models, in English, Japanese and Korean, light and dark (screenshots
// in /work/shots/h42-failover), and the next prompt goes to the first choice again. Offline, a
// local model of the list is offered on the banner at once.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

const SHOTS = process.env.RESOLUTE_SHOTS_DIR ?? 'test-results/screens';
const FALLBACK = { providers: { fallback: [{ provider: 'simulator', model: 'resolute-sim-2' }] } };
const SAID = {
  en: 'Overloaded on resolute-sim-1 — continuing on resolute-sim-2',
  ja: 'resolute-sim-1 が過負荷です — resolute-sim-2 で続けます',
  ko: 'resolute-sim-1 과부하 — resolute-sim-2(으)로 이어서 진행합니다',
} as const;

const LANGUAGES = ['en', 'ja', 'ko'] as const;
const SCHEMES = ['light', 'dark'] as const;

/** The window in that language and colour scheme, on the chat. */
async function showIn(page: Page, language: (typeof LANGUAGES)[number], scheme: (typeof SCHEMES)[number]) {
  mkdirSync(SHOTS, { recursive: true });
  await page.emulateMedia({ colorScheme: scheme });
  if (language === 'en') return;
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.setLanguage(language);
  await new ChatPage(page).open();
}

test.describe('failover to the fallback model', () => {
  test.use({
    appOptions: {
      set: ['retry.baseDelayMs=20'],
      script: '@resolute-sim-1 overloaded*',
      files: { 'settings.json': JSON.stringify(FALLBACK) },
    },
  });

  for (const language of LANGUAGES) {
    for (const scheme of SCHEMES) {
      test(`the banner and the chat name both models (${language}, ${scheme})`, async ({ app }) => {
        await showIn(app.page, language, scheme);
        const chat = new ChatPage(app.page);
        const banner = new RetryBanner(app.page);
        await chat.prompt('Overloaded, then elsewhere');
        await expect(chat.lastAssistant()).toContainText('Simulated reply');
        await expect(banner.root).toContainText(SAID[language]);
        await expect(chat.modelSwitchRows).toHaveText(SAID[language]);
        await expect(chat.lastReply().answeredBy).toHaveText('resolute-sim-2');
        expect((await app.requests()).map((r) => r.model)).toEqual([
          ...Array(4).fill('resolute-sim-1'),
          'resolute-sim-2',
        ]);
        await app.page.screenshot({ path: `${SHOTS}/failover-${language}-${scheme}.png` });
        if (language !== 'en' || scheme !== 'light') return;

        // The next prompt goes to the first choice again (it is still overloaded: the same failover).
        await chat.prompt('And again');
        await expect(chat.assistantMessages).toHaveCount(2);
        await expect(chat.modelSwitchRows).toHaveCount(2);
        const models = (await app.requests()).map((r) => r.model);
        expect(models.slice(5)).toEqual([...Array(4).fill('resolute-sim-1'), 'resolute-sim-2']);
      });
    }
  }
});

test.describe('Continue on another model, from a failed card', () => {
  const sims = ['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-3'];
  test.use({
    appOptions: {
      set: ['retry.baseDelayMs=20'],
      // Every model of the list is down: the chain fails over to the end of it, then fails.
      script: sims.map((model) => `@${model} overloaded*`).join(' '),
      files: {
        'settings.json': JSON.stringify({
          providers: { fallback: sims.slice(1).map((model) => ({ provider: 'simulator', model })) },
        }),
      },
    },
  });

  for (const language of LANGUAGES) {
    for (const scheme of SCHEMES) {
      test(`"Continue on…" offers the other models and the chosen one answers (${language}, ${scheme})`, async ({
        app,
      }) => {
        await showIn(app.page, language, scheme);
        const chat = new ChatPage(app.page);
        await chat.prompt('Everything is down');
        const card = chat.erroredCard();
        const continueOn = card.continueOn;
        await expect(continueOn).toBeVisible();
        await expect(continueOn).toHaveAttribute('aria-expanded', 'false');
        expect(await app.requests()).toHaveLength(12);
        await continueOn.click();
        await expect(continueOn).toHaveAttribute('aria-expanded', 'true');
        // The session's own model (the last it failed over to) is not offered.
        const options = card.continueOnOptions;
        await expect(options).toHaveCount(2);
        expect(await options.evaluateAll((els) => els.map((el) => el.getAttribute('data-model')))).toEqual(
          sims.slice(0, 2),
        );
        await app.page.screenshot({ path: `${SHOTS}/continue-on-${language}-${scheme}.png` });

        // resolute-sim-2 is back: it answers the message (nothing had streamed, so it is asked again).
        await app.setScript('@resolute-sim-1 overloaded* @resolute-sim-3 overloaded*');
        await card.continueOnOption('resolute-sim-2').click();
        await expect(chat.lastAssistant()).toContainText('Simulated reply');
        await expect(chat.lastReply().answeredBy).toHaveText('resolute-sim-2');
        const requests = await app.requests();
        expect(requests).toHaveLength(13);
        expect(requests.at(-1)).toMatchObject({ model: 'resolute-sim-2', lastUserText: 'Everything is down' });
        await expect(chat.input).toBeFocused();
      });
    }
  }
});

test.describe('offline, with a local model in the fallback list', () => {
  test.use({
    appOptions: {
      set: ['retry.baseDelayMs=2000'],
      files: {
        'settings.json': JSON.stringify({
          providers: { fallback: [{ provider: 'openai-compatible', model: 'local-llama' }] },
        }),
      },
    },
  });

  test('the offline banner offers the local model at once, and the turn goes on there', async ({ app }) => {
    // The local server is the simulator on 127.0.0.1, reached as an OpenAI-compatible server; the
    // chat itself stays on the simulator's own model.
    const settings = new SettingsPage(app.page);
    await settings.open();
    await settings.useOpenAiCompatible(app.simulatorUrl);
    await settings.provider.selectOption('simulator');
    await expect(settings.saved).toContainText('Saved');
    const chat = new ChatPage(app.page);
    await chat.open();
    await app.setOffline(true);
    await chat.prompt('no network');
    const banner = new RetryBanner(app.page);
    await expect(banner.text).toHaveText('Offline — waiting for the network (retry 1/2 kept)');
    const offer = banner.continueLocal;
    await expect(offer).toHaveText('Continue on local-llama');
    await offer.click();
    // The simulator is the local server too, so the continue waits for it; then it answers.
    await app.setOffline(false);
    await expect(chat.lastAssistant()).toContainText('Simulated reply');
    await expect(chat.lastReply().answeredBy).toHaveText('local-llama');
    expect((await app.requests()).map((r) => r.model)).toEqual(['local-llama']);
  });
});
