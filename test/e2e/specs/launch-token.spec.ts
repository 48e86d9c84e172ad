// The browser mode's launch token as the page holds it: it leaves the address bar once read, a
// reload keeps working (the tab keeps it), and the app's address opened without it says what to
// do instead of "reconnecting…" forever. Browser mode only: Electron has no token.
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';

test('the token leaves the address bar, a reload keeps working, a tab without it says what to do', async ({ app }) => {
  test.skip(app.host === 'electron', 'the Electron window has no launch token');
  const page = app.page;
  const chat = new ChatPage(page);
  await expect(chat.input).toBeVisible();
  await expect(page.getByTestId('connection-status')).toBeHidden();
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);

  await page.reload();
  await chat.prompt('still here after a reload');
  await expect(chat.lastAssistant()).toContainText('Simulated reply');

  const other = await page.context().newPage();
  await other.goto(new URL('/', page.url()).href);
  await expect(other.getByTestId('token-needed')).toContainText('Open the URL Resolute printed');
  await expect(other.getByTestId('chat-input')).toHaveCount(0);
});
