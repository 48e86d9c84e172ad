// Scheduled retries in the window (docs/retry-policy.md, "Scheduled retries"): the simulator asks
// for a two-hour wait (`429:7200`). With Settings → Retry's "Schedule long waits" on, the banner and
// the chain's card read "Retrying at HH:MM (in 2 h)" with Cancel and Retry now; with it off, the
// failed card offers "Retry at HH:MM", which schedules that chain. The History's card says the same. Screenshots in en/ja/ko, light
// and dark, go to test-results/screens.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { SCREENS } from '../fixtures/screens';
import { ChatPage } from '../pages/chat-page';
import { ErroredCard } from '../pages/errored-card';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import type { Page } from '@playwright/test';

const LANGUAGES = ['en', 'ja', 'ko'] as const;

test.use({ appOptions: { script: '429:7200,ok' } });

/**
 * The clock time two hours from now as the window writes it, in the browser's own time zone: 24-hour,
 * with the date in front when that is tomorrow.
 */
/**
 * The clock time two hours on, as the window writes it — as a pattern that also takes the minute
 * before: the schedule was fixed when the 429 arrived, and the clock may have passed a minute since.
 */
async function inTwoHours(page: Page, language: string): Promise<string> {
  const [now, before] = await page.evaluate((lang) => {
    const format = (at: Date) => {
      const sameDay = at.toDateString() === new Date().toDateString();
      const options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
      if (!sameDay) Object.assign(options, { month: 'short', day: 'numeric' });
      return new Intl.DateTimeFormat(lang, options).format(at);
    };
    return [format(new Date(Date.now() + 7_200_000)), format(new Date(Date.now() + 7_140_000))];
  }, language);
  const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(?:${quote(now)}|${quote(before)})`;
}

const scheduledText = (time: string) => new RegExp(`^Retrying at ${time} \\(in (?:2 h|1 h 59 min)\\)$`);

/** Each language, light and dark: `shoot` takes the screenshots; the chat is shown again after. */
async function inEachLanguage(page: Page, shoot: (language: string, scheme: string) => Promise<void>) {
  const settings = new SettingsPage(page);
  const chat = new ChatPage(page);
  for (const language of LANGUAGES) {
    await settings.open();
    await settings.setLanguage(language);
    await chat.open();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shoot(language, scheme);
    }
  }
  await settings.open();
  await settings.setLanguage('en');
  await chat.open();
}

test('with "Schedule long waits" on, the banner and the card name the clock time', async ({ app }) => {
  // Six languages and schemes with axe, the History and a retry: over two minutes on a loaded machine.
  test.slow();
  const page = app.page;
  const settings = new SettingsPage(page);
  await settings.open();
  const toggle = settings.scheduleLongWaits;
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();
  const chat = new ChatPage(page);
  await chat.open();

  await chat.prompt('wait two hours for me');
  const banner = new RetryBanner(page);
  const time = await inTwoHours(page, 'en');
  await expect(banner.text).toHaveText(scheduledText(time));
  await expect(banner.retryNow).toBeVisible();
  await expect(banner.cancel).toBeVisible();
  const card = chat.erroredCard();
  await expect(card.scheduled).toHaveText(scheduledText(time));
  // Enter meanwhile sends nothing, and the composer says why and how to send now.
  await expect(chat.sendHeld).toHaveCount(0);
  await chat.input.fill('and one more thing');
  await chat.input.press('Enter');
  await expect(chat.sendHeld).toHaveText(
    new RegExp(
      `^Not sent: this chat retries its last message at ${time} \\(in (?:2 h|1 h 59 min)\\)\\. Cancel that retry above`,
    ),
  );
  await expect(chat.input).toHaveValue('and one more thing');
  expect(await axeViolations(page)).toEqual([]);

  await inEachLanguage(page, async (language, scheme) => {
    const local = await inTwoHours(page, language);
    await expect(banner.text).toContainText(new RegExp(local));
    await expect(card.scheduled).toContainText(new RegExp(local));
    await chat.input.press('Enter');
    await expect(chat.sendHeld).toContainText(new RegExp(local));
    await page.screenshot({ path: `${SCREENS}/scheduled-banner-${language}-${scheme}.png` });
  });

  // The History says the same, from what the history stored.
  const history = new HistoryPage(page);
  await history.open();
  await history.erroredOnly.click();
  await expect(new ErroredCard(history.erroredTurns.first()).scheduled).toHaveText(scheduledText(time));
  await chat.open();

  await banner.retryNow.click();
  await chat.waitForTurnEnd();
  await expect(chat.lastAssistant()).toContainText('Simulated reply');
  expect(await app.requests()).toHaveLength(2);
});

test('with it off, the failed card offers "Retry at …", which schedules that chain', async ({ app }) => {
  const page = app.page;
  const chat = new ChatPage(page);
  await chat.prompt('too long a wait');
  const card = chat.erroredCard();
  await card.expectStatus('failed');
  await expect(card.decision).toContainText('2 h, above the 1 min maximum delay');
  const time = await inTwoHours(page, 'en');
  const retryAt = card.retryAt;
  await expect(retryAt).toHaveText(new RegExp(`^Retry at ${time}$`));
  expect(await axeViolations(page)).toEqual([]);

  await inEachLanguage(page, async (language, scheme) => {
    await expect(card.retryAt).toContainText(new RegExp(await inTwoHours(page, language)));
    await card.root.screenshot({ path: `${SCREENS}/retry-at-card-${language}-${scheme}.png` });
  });

  await retryAt.click();
  const banner = new RetryBanner(page);
  await expect(banner.text).toHaveText(new RegExp(`^Retrying at ${time} \\(in (2 h|1 h 59 min)\\)$`));
  await expect(card.scheduled).toContainText(new RegExp(`Retrying at ${time}`));
  await expect(chat.retryAtButtons).toHaveCount(0);
  await banner.cancel.click();
  await expect(banner.root).toContainText('Retry cancelled');
  expect(await app.requests()).toHaveLength(1);
});
