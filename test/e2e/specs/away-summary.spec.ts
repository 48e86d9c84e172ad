// "While you were away" (docs/architecture.md, "While you were away"): a chat whose retry recovered
// and which asked an approval while another chat was shown shows, once opened again, one card where
// the person left it — the failure by category with its wait, the chain recovered, the reply and
// its tool call, the approval waiting, the tokens — that Dismiss takes away and a reload does not
// bring back. Screenshots of the card in en/ja/ko, light and dark, go to test-results/screens.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { EVERY_LANGUAGE_AND_SCHEME, SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import { ToolsPage } from '../pages/tools-page';

test.use({
  appOptions: {
    // The retry waits long enough for another chat to be shown before it goes.
    set: ['tools.approval=ask', 'retry.baseDelayMs=8000', 'retry.jitterMaxMs=0'],
    script: `503, tool:bash:${JSON.stringify({ command: 'echo built' })}, ok`,
  },
});

test('a chat that retried and asked an approval while another was shown sums it up once, where it was left', async ({
  app,
}) => {
  // Six screenshots and an axe check on a shared machine.
  test.setTimeout(300_000);
  const page = app.page;
  const chat = new ChatPage(page);
  const shell = new AppShell(page);
  await chat.prompt('Build the report');
  await expect(new RetryBanner(page).root).toContainText('Retrying (1/3)');
  await shell.newChat.click();
  await expect(chat.userMessages).toHaveCount(0);

  // The retry goes and its reply asks to run a command, while the new chat is shown.
  const row = shell.sessions.filter({ hasText: 'Build the report' });
  await expect(row.getByTestId('sidebar-activity')).toHaveAttribute('data-state', 'approval', { timeout: 30_000 });
  await expect(chat.awaySummary).toHaveCount(0);

  await row.click();
  await expect(chat.title).toHaveText('Build the report');
  await expect(chat.awaySummary).toBeVisible();
  await expect(chat.awayLine('failures')).toHaveText('1 failed attempt, retried: Server error ×1 (waited 8 s)');
  await expect(chat.awayLine('recovered')).toHaveText('1 retry chain recovered');
  await expect(chat.awayLine('work')).toHaveText('1 reply, 1 tool call');
  await expect(chat.awayLine('approvals-waiting')).toHaveText('1 approval waits for your answer below');
  await expect(chat.awayLine('cost')).toContainText('tokens');
  await expect(chat.awayLine('approvals')).toHaveCount(0);
  await expect(chat.awayLine('files')).toHaveCount(0);
  // Where the person left: after the failed attempt they saw, before the reply they did not.
  const tools = new ToolsPage(page);
  const inOrder = chat.recoveredNote.or(chat.awaySummary).or(tools.card('bash'));
  const kinds = await inOrder.evaluateAll((list) => list.map((el) => el.getAttribute('data-testid')));
  expect(kinds).toEqual(['recovered-note', 'away-summary', 'tool-card']);

  const settings = new SettingsPage(page);
  const title = { en: 'While you were away', ja: '離れている間に', ko: '자리를 비운 동안' };
  for (const [language, scheme] of EVERY_LANGUAGE_AND_SCHEME) {
    if (scheme === 'light') {
      await settings.open();
      await settings.setLanguage(language);
      await chat.open();
    }
    await page.emulateMedia({ colorScheme: scheme });
    await expect(chat.awaySummary).toContainText(title[language]);
    if (language === 'en') expect(await axeViolations(page)).toEqual([]);
    await chat.awaySummary.screenshot({ path: `${SCREENS}/away-summary-${language}-${scheme}.png` });
  }
  await settings.open();
  await settings.setLanguage('en');
  await chat.open();

  await chat.awayDismiss.click();
  await expect(chat.awaySummary).toHaveCount(0);
  // Seen once: a reload does not bring it back; the approval still waits, and answering it goes on.
  await page.reload();
  await expect(tools.approval).toBeVisible();
  await expect(chat.awaySummary).toHaveCount(0);
  await tools.allowOnce.click();
  await chat.waitForTurnEnd();
  await expect(chat.awaySummary).toHaveCount(0);
});
