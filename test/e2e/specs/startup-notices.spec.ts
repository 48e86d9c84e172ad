// A problem found while the app started — here a damaged settings file, set aside — is shown in
// the window's notices, although it happened before the window connected.
import { test, expect } from '../fixtures/app';
import { AppShell } from '../pages/app-shell';

test.use({ appOptions: { files: { 'settings.json': '{ "retry": { "enabled": false, "maxRetries": 7' } } });

test('a damaged settings file found at start is shown as a notice', async ({ app }) => {
  const shell = new AppShell(app.page);
  const notice = shell.notices;
  await expect(notice).toContainText('The settings file was invalid');
  await expect(notice).toContainText('defaults are in use');
  await app.page.reload();
  // Shown once per launch: a reload of the same page does not add it again.
  await expect(shell.notices).toHaveCount(1);
});
