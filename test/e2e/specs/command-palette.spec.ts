// The command palette (issue 30, "The first screens"): Ctrl/Cmd+Shift+P, or "/" at the start of an
// empty composer, lists the app's actions — new chat, the views, switching the model, each Settings
// section, exporting the chat — filtered as the person types; Enter runs the first match, Esc closes.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { ChatPage } from '../pages/chat-page';

test('Ctrl+Shift+P and "/" open the palette; typing filters it; Enter runs the action; Esc closes it', async ({
  app,
}) => {
  const { page } = app;
  const chat = new ChatPage(page);
  await chat.prompt('hello');
  await chat.waitForTurnEnd();
  await page.keyboard.press('Control+Shift+P');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  const search = palette.getByRole('combobox');
  await expect(search).toBeFocused();
  await expect(palette.getByRole('option').first()).toHaveText('New chat');
  expect(await axeViolations(page)).toEqual([]);
  await search.fill('history');
  await expect(palette.getByRole('option')).toHaveText(['Go to History']);
  await search.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('nav-history')).toHaveAttribute('aria-current', 'page');

  await page.getByTestId('nav-chat').click();
  await chat.input.focus();
  await page.keyboard.type('/');
  await expect(palette).toBeVisible();
  await expect(chat.input).toHaveValue('');
  await search.fill('decision');
  await search.press('Enter');
  await expect(page.getByRole('heading', { name: 'Decision table' })).toBeFocused();

  await page.keyboard.press('Control+Shift+P');
  await search.fill('switch model');
  await search.press('Enter');
  await expect(page.getByTestId('model-picker')).toBeFocused();
  await page.keyboard.press('Control+Shift+P');
  await search.press('Escape');
  await expect(palette).toBeHidden();
});
