// The command palette (issue 30, "The first screens"): Ctrl/Cmd+Shift+P, or "/" at the start of an
// empty composer, lists the app's actions — new chat, the views, switching the model, each Settings
// section, exporting the chat, the thinking level, attaching files — filtered as the person types; Enter runs the first match, Esc closes.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';

test('Ctrl+Shift+P and "/" open the palette; typing filters it; Enter runs the action; Esc closes it', async ({
  app,
}) => {
  const { page } = app;
  const chat = new ChatPage(page);
  await chat.prompt('hello');
  await chat.waitForTurnEnd();
  await page.keyboard.press('Control+Shift+P');
  const shell = new AppShell(page);
  const palette = shell.commandPalette;
  await expect(palette).toBeVisible();
  const search = shell.paletteSearch;
  await expect(search).toBeFocused();
  await expect(shell.paletteOptions.first()).toHaveText('New chat');
  expect(await axeViolations(page)).toEqual([]);
  await search.fill('history');
  await expect(shell.paletteOptions).toHaveText(['Go to History']);
  await search.press('Enter');
  await expect(palette).toBeHidden();
  await expect(shell.navHistory).toHaveAttribute('aria-current', 'page');

  await chat.open();
  await chat.input.focus();
  await page.keyboard.type('/');
  await expect(palette).toBeVisible();
  await expect(chat.input).toHaveValue('');
  await search.fill('decision');
  await search.press('Enter');
  await expect(new SettingsPage(page).decisionTableHeading).toBeFocused();

  await page.keyboard.press('Control+Shift+P');
  await search.fill('switch model');
  await search.press('Enter');
  await expect(chat.modelPicker).toBeFocused();
  await page.keyboard.press('Control+Shift+P');
  await search.press('Escape');
  await expect(palette).toBeHidden();
});

test("the palette sets the thinking level and opens the composer's file picker, in en, ja and ko", async ({ app }) => {
  const { page } = app;
  const shell = new AppShell(page);
  const palette = shell.commandPalette;
  const search = shell.paletteSearch;
  const chat = new ChatPage(page);
  const thinking = chat.thinkingLevel;
  // The first press can come before a slow page listens for it: pressed again until it opens.
  await expect(async () => {
    if (!(await palette.isVisible())) await page.keyboard.press('Control+Shift+P');
    await expect(palette).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await search.fill('thinking level');
  // One command a level, as the header's Thinking control offers them.
  await expect(shell.paletteOptions).toHaveText([
    'Thinking level: Off',
    'Thinking level: Minimal',
    'Thinking level: Low',
    'Thinking level: Medium',
    'Thinking level: High',
  ]);
  await search.fill('thinking high');
  await search.press('Enter');
  await expect(palette).toBeHidden();
  await expect(thinking).toHaveValue('high');

  // Attach opens the composer's own file picker; the chosen file waits as a chip.
  await page.keyboard.press('Control+Shift+P');
  await search.fill('attach');
  await expect(shell.paletteOptions).toHaveText(['Attach files…']);
  const chooser = page.waitForEvent('filechooser');
  await search.press('Enter');
  await (await chooser).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('a note') });
  await expect(chat.attachmentChips).toContainText('notes.txt');

  const settings = new SettingsPage(page);
  for (const [language, thinkingLow, attach] of [
    ['ja', '思考レベル: 低', 'ファイルを添付…'],
    ['ko', '생각 수준: 낮음', '파일 첨부…'],
  ] as const) {
    await settings.open();
    await settings.setLanguage(language);
    await chat.open();
    await page.keyboard.press('Control+Shift+P');
    await search.fill(thinkingLow);
    await expect(shell.paletteOptions).toHaveText([thinkingLow]);
    await search.press('Enter');
    await expect(thinking).toHaveValue('low');
    await page.keyboard.press('Control+Shift+P');
    await search.fill(attach);
    await expect(shell.paletteOptions).toHaveText([attach]);
    await search.press('Escape');
  }
});
