// Failover through the real UI (docs/retry-policy.md, "Failover"): with a fallback list, a model
// that stays overloaded through its retries hands the turn to the next model; the banner and the
// chat's switch row name both models, in English, Japanese and Korean, light and dark (screenshots
// in /work/shots/h42-failover), and the next prompt goes to the first choice again.
import { mkdirSync } from 'node:fs';
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

test.describe('failover to the fallback model', () => {
  test.use({
    appOptions: {
      set: ['retry.baseDelayMs=20'],
      script: '@resolute-sim-1 overloaded*',
      files: { 'settings.json': JSON.stringify(FALLBACK) },
    },
  });

  for (const language of ['en', 'ja', 'ko'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`the banner and the chat name both models (${language}, ${scheme})`, async ({ app }) => {
        mkdirSync(SHOTS, { recursive: true });
        await app.page.emulateMedia({ colorScheme: scheme });
        if (language !== 'en') {
          const settings = new SettingsPage(app.page);
          await settings.open();
          await settings.setLanguage(language);
          await app.page.getByTestId('nav-chat').click();
        }
        const chat = new ChatPage(app.page);
        const banner = new RetryBanner(app.page);
        await chat.prompt('Overloaded, then elsewhere');
        await expect(chat.lastAssistant()).toContainText('Simulated reply');
        await expect(banner.root).toContainText(SAID[language]);
        await expect(app.page.getByTestId('model-switch-row')).toHaveText(SAID[language]);
        await expect(chat.lastAssistant().getByTestId('answered-by')).toHaveText('resolute-sim-2');
        expect((await app.requests()).map((r) => r.model)).toEqual([
          ...Array(4).fill('resolute-sim-1'),
          'resolute-sim-2',
        ]);
        await app.page.screenshot({ path: `${SHOTS}/failover-${language}-${scheme}.png` });
        if (language !== 'en' || scheme !== 'light') return;

        // The next prompt goes to the first choice again (it is still overloaded: the same failover).
        await chat.prompt('And again');
        await expect(chat.assistantMessages).toHaveCount(2);
        await expect(app.page.getByTestId('model-switch-row')).toHaveCount(2);
        const models = (await app.requests()).map((r) => r.model);
        expect(models.slice(5)).toEqual([...Array(4).fill('resolute-sim-1'), 'resolute-sim-2']);
      });
    }
  }
});
