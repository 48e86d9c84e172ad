// A retry chain cut off by a crash (SIGKILL while the banner counts down) is shown as interrupted
// after the next start — in the history and in the resumed chat — never as "Retrying…" forever,
// and the start says so in a notice, in the UI language. Browser mode only: the Electron app cannot be
// killed this way here.
import { test, expect } from '../fixtures/app';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';

test.use({ appOptions: { set: ['retry.baseDelayMs=30000'], script: '503*' } });

test('a chain cut off by a crash reads "Interrupted" after the restart', async ({ app }) => {
  test.skip(app.host === 'electron', 'the test kills the browser-mode process');
  await new ChatPage(app.page).prompt('cut off by a crash');
  await expect(new RetryBanner(app.page).root).toContainText('Retrying (1/3)');
  await app.crash();

  const page = await app.start();
  const history = new HistoryPage(page);
  await history.open();
  await history.erroredOnly.click();
  await expect(history.erroredTurns.first().getByTestId('timeline-outcome')).toContainText('Interrupted');
  await expect(page.getByText('Retrying…')).toHaveCount(0);
  const shell = new AppShell(page);
  await expect(shell.notices.filter({ hasText: '1 retry chain was cut off' })).toHaveCount(1);
  // The main process sends the notice's code: the window shows it in the language chosen now.
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.setLanguage('ja');
  const notices = shell.notices;
  await expect(notices.filter({ hasText: '再試行中だった 1 件の処理が途中で打ち切られました' })).toHaveCount(1);
  await expect(notices.filter({ hasText: 'retry chain' })).toHaveCount(0);
});
