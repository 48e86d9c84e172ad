// Screenshots of the screens the walkthrough's fixes changed (issue 30), saved under
// test-results/screens for people to look at, in English light and dark and in Japanese and
// Korean: a first message too long for the model with the Simulator badge naming its script, a
// prompt held for a rate limit, and a retried attempt that called a tool. Each view is checked
// with axe-core too.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

const SCREENS = 'test-results/screens';

for (const [language, scheme] of [
  ['en', 'light'],
  ['en', 'dark'],
  ['ja', 'light'],
  ['ko', 'dark'],
] as const) {
  test(`overflow, held prompt and recovered tool call in ${language} (${scheme})`, async ({ app }) => {
    // Many screens, each checked by axe: three times the config's ceiling for a loaded machine.
    test.slow();
    const { page } = app;
    await page.emulateMedia({ colorScheme: scheme });
    const settings = new SettingsPage(page);
    await settings.open();
    await settings.setLanguage(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    const script = page.getByTestId('settings-simulator-script');
    await script.fill('overflow');
    await script.press('Enter');
    await page.getByTestId('nav-chat').click();
    const chat = new ChatPage(page);
    await chat.prompt('a very long first message');
    await expect(chat.erroredCards.last().getByTestId('card-larger-model')).toBeVisible();
    await expect(page.getByTestId('simulator-badge-script')).toContainText('overflow');
    await page.screenshot({ path: `${SCREENS}/walkthrough-overflow-${language}-${scheme}.png` });
    expect(await axeViolations(page)).toEqual([]);

    await app.setScript('503,tool:bash:{"command":"ls"},ok');
    await page.getByTestId('new-chat').click();
    await chat.prompt('list the files');
    await expect(page.getByTestId('approval-card')).toBeVisible();
    await expect(page.getByTestId('recovered-note')).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/walkthrough-tool-retry-${language}-${scheme}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('approval-deny').click();
    await chat.waitForTurnEnd();
    await app.setScript('429:120');
    await page.getByTestId('new-chat').click();
    await chat.prompt('a question that gets rate limited');
    await expect(chat.erroredCards.last()).toHaveAttribute('data-status', 'failed');
    await page.getByTestId('new-chat').click();
    await chat.input.fill('the held question');
    await chat.send.click();
    await expect(page.getByTestId('pacing-notice')).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/walkthrough-held-${language}-${scheme}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await chat.stop.click();
    await expect(chat.input).toHaveValue('the held question');
  });
}
