// The file history in the chat through the real UI in Chromium (browser mode; docs/file-history.md,
// "In the chat"): a scripted turn writes, edits and runs bash; under it "Changed N files (+a −b)"
// with Review (the diffs), Undo and Redo putting the workspace back and forth; a file the person
// changed since asks (keep yours / take the version from before) and nothing is written before the
// answer; what is not recorded is said on the card; Restore files to here on an earlier message
// previews, then takes back every later run's changes. Screenshots of the row, the question and the
// restore's preview in en, ja and ko, light and dark. A failed card names the files its run changed,
// and its Resend's "Undo those changes first" undoes them (asking for a file changed since) before
// sending again, with screenshots of the card's question.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { EACH_LANGUAGE_AND_DARK, SCREENS } from '../fixtures/screens';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { FileChanges, RestoreFiles } from '../pages/file-changes';
import { HistoryPage } from '../pages/history-page';
import { SettingsPage } from '../pages/settings-page';
import { tool } from '../../fixtures/sim-steps';

test.use({ appOptions: { set: ['tools.approval=auto'] } });

test('Changed N files, Review, Undo, Redo, and the question for a file changed since', async ({ app }) => {
  const file = (name: string) => join(app.workspace, name);
  writeFileSync(file('plan.md'), 'one\ntwo\n');
  writeFileSync(file('notes.txt'), 'mine\n');
  writeFileSync(file('.gitignore'), 'build/\n');
  await app.setScript(
    [
      tool('edit', { path: 'plan.md', edits: [{ oldText: 'two', newText: 'TWO' }] }),
      tool('write', { path: 'notes.txt', content: 'the agent’s\n' }),
      tool('bash', { command: 'echo made > made.txt && mkdir build && echo x > build/out' }),
      'ok',
    ].join(', '),
  );
  const chat = new ChatPage(app.page);
  await chat.prompt('Change some files');
  await chat.waitForTurnEnd();
  const files = new FileChanges(app.page);
  const row = files.row();
  await expect(row.summary).toHaveText('Changed 3 files (+3 −2)');
  // What the history does not keep is said on the call's card.
  await expect(files.notRecorded).toHaveText("Not recorded: 1 file the workspace's .gitignore leaves out: build/out");

  await row.reviewButton.click();
  await expect(row.review).toContainText('+TWO');
  await expect(row.review).toContainText('+made');

  await row.undo.click();
  await expect(row.summary).toHaveText('Undid the changes to 3 files');
  expect(readFileSync(file('plan.md'), 'utf8')).toBe('one\ntwo\n');
  expect(readFileSync(file('notes.txt'), 'utf8')).toBe('mine\n');

  await row.redo.click();
  await expect(row.summary).toHaveText('Changed 3 files (+3 −2)');
  expect(readFileSync(file('made.txt'), 'utf8')).toBe('made\n');

  // The person edits a file the turn wrote: Undo asks, and nothing is written before the answer.
  writeFileSync(file('notes.txt'), 'my own edit\n');
  await row.undo.click();
  const question = row.question;
  await expect(question.root).toContainText('notes.txt');
  expect(readFileSync(file('plan.md'), 'utf8')).toBe('one\nTWO\n');
  await question.cancel.click();
  await expect(question.root).toBeHidden();
  expect(readFileSync(file('notes.txt'), 'utf8')).toBe('my own edit\n');
  await row.undo.click();
  await question.keepYours.click();
  await expect(row.redo).toBeVisible();
  expect(readFileSync(file('notes.txt'), 'utf8')).toBe('my own edit\n');
  expect(readFileSync(file('plan.md'), 'utf8')).toBe('one\ntwo\n');

  // The History's session lists the run's changes too, for Review only.
  const history = new HistoryPage(app.page);
  await history.open();
  await history.sessionLink('Change some files').click();
  const stored = new FileChanges(history.detail).row();
  await expect(stored.summary).toHaveText('Changed 3 files (+3 −2)');
  await expect(stored.reviewButton).toBeVisible();
  await expect(stored.undo).toHaveCount(0);
});

/** The chat in a language and a colour scheme, for the screenshots. */
async function chatIn(page: Page, language: 'en' | 'ja' | 'ko', scheme: 'light' | 'dark'): Promise<ChatPage> {
  await page.emulateMedia({ colorScheme: scheme });
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.setLanguage(language);
  await new AppShell(page).navChat.click();
  return new ChatPage(page);
}

/** Two runs: the first rewrites a.txt, the second rewrites it again and creates b.txt. */
async function twoRuns(app: { workspace: string; setScript: (s: string) => Promise<void> }, chat: ChatPage) {
  writeFileSync(join(app.workspace, 'a.txt'), 'mine\n');
  await app.setScript(`${tool('write', { path: 'a.txt', content: 'first\n' })}, ok`);
  await chat.prompt('First run');
  const files = new FileChanges(chat.page);
  await expect(files.rows).toHaveCount(1);
  await app.setScript(
    `${tool('write', { path: 'a.txt', content: 'second\n' })}, ${tool('bash', { command: 'echo new > b.txt' })}, ok`,
  );
  await chat.prompt('Second run');
  await expect(files.rows).toHaveCount(2);
}

test('Restore files to here previews, asks for a file changed since, and takes back every later run', async ({
  app,
}) => {
  const file = (name: string) => join(app.workspace, name);
  const chat = new ChatPage(app.page);
  await twoRuns(app, chat);
  const [first, last] = [chat.userMessages.first(), chat.userMessages.last()];
  // The last message's run has its own Undo; Restore files to here is on the earlier messages.
  await expect(new RestoreFiles(last).button).toHaveCount(0);
  const restore = new RestoreFiles(first);

  // The preview says what happens to each file and writes nothing; Cancel leaves it all.
  await restore.button.click();
  const preview = restore.preview;
  await expect(preview).toContainText('a.txt is put back as it was');
  await expect(preview).toContainText('b.txt is removed (the agent created it)');
  expect(readFileSync(file('a.txt'), 'utf8')).toBe('second\n');
  await restore.cancel.click();
  await expect(preview).toBeHidden();
  expect(existsSync(file('b.txt'))).toBe(true);

  // The person changes b.txt meanwhile: Restore asks for it, and Keep yours leaves it.
  await restore.button.click();
  writeFileSync(file('b.txt'), 'my b\n');
  await restore.restore.click();
  await expect(restore.question.root).toContainText('b.txt');
  expect(readFileSync(file('a.txt'), 'utf8')).toBe('second\n');
  await restore.question.keepYours.click();
  await expect(preview).toBeHidden();
  expect(readFileSync(file('a.txt'), 'utf8')).toBe('mine\n');
  expect(readFileSync(file('b.txt'), 'utf8')).toBe('my b\n');
  // The runs' rows say so: the first undone, the second's b.txt kept (its Undo would ask again).
  const rows = new FileChanges(app.page).summaries;
  await expect(rows.first()).toHaveText('Undid the changes to 1 file');
  await expect(rows.last()).toHaveText('Changed 2 files (+2 −1)');
});

test('a failed card whose run changed files names them', async ({ app }) => {
  await app.setScript(`${tool('write', { path: 'half.txt', content: 'half done\n' })}, auth`);
  await new ChatPage(app.page).prompt('Start, then fail');
  const card = new ChatPage(app.page).erroredCard();
  await card.expectStatus('failed');
  await expect(new FileChanges(card.root).erroredChangedFiles).toHaveText(
    'Before it failed, this run changed 1 file: half.txt',
  );
  await expect(new FileChanges(app.page).summaries).toHaveText('Changed 1 file (+1 −0)');
});

/** A run that writes half.txt and rewrites notes.txt, then fails (401); the person then edits notes.txt. */
async function failedRunThenMyEdit(
  app: { workspace: string; setScript: (s: string) => Promise<void> },
  chat: ChatPage,
) {
  writeFileSync(join(app.workspace, 'notes.txt'), 'mine\n');
  await app.setScript(
    [
      tool('write', { path: 'half.txt', content: 'half done\n' }),
      tool('write', { path: 'notes.txt', content: 'the agent’s\n' }),
      'auth',
    ].join(', '),
  );
  await chat.prompt('Start, then fail');
  const card = chat.erroredCard();
  await card.expectStatus('failed');
  await expect(card.undoFirst).toBeVisible();
  writeFileSync(join(app.workspace, 'notes.txt'), 'my own edit\n');
  return card;
}

test("Resend's Undo those changes first takes the failed run's changes back, asking for a file changed since", async ({
  app,
}) => {
  const file = (name: string) => join(app.workspace, name);
  const chat = new ChatPage(app.page);
  const card = await failedRunThenMyEdit(app, chat);
  await app.setScript('ok');
  await card.root.getByRole('checkbox', { name: 'Undo those changes first' }).check();
  await card.resend.click();
  // The undo asks for the file the person changed; nothing is written, nothing sent before the answer.
  await expect(card.undoQuestion).toContainText('notes.txt');
  expect(readFileSync(file('half.txt'), 'utf8')).toBe('half done\n');
  await expect(card.resend).toBeDisabled();
  // Cancel: nothing undone, nothing sent.
  await card.undoQuestion.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.undoQuestion).toBeHidden();
  expect(existsSync(file('half.txt'))).toBe(true);
  await expect(chat.assistantMessages).toHaveCount(0);
  // Again, Keep yours: the rest is undone, then the message goes again.
  await card.resend.click();
  await card.undoQuestion.getByRole('button', { name: 'Keep yours' }).click();
  await expect(chat.assistantMessages.last()).toContainText('Simulated reply');
  expect(existsSync(file('half.txt'))).toBe(false);
  expect(readFileSync(file('notes.txt'), 'utf8')).toBe('my own edit\n');
});

test("Resend without the box leaves the failed run's changes in place", async ({ app }) => {
  const chat = new ChatPage(app.page);
  const card = await failedRunThenMyEdit(app, chat);
  await app.setScript('ok');
  await card.resend.click();
  await expect(chat.assistantMessages.last()).toContainText('Simulated reply');
  expect(readFileSync(join(app.workspace, 'half.txt'), 'utf8')).toBe('half done\n');
});

test.describe("Resend's Undo those changes first, screenshots by language", () => {
  for (const language of ['en', 'ja', 'ko'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`the failed card's question in ${language} (${scheme})`, async ({ app }) => {
        const chat = await chatIn(app.page, language, scheme);
        const card = await failedRunThenMyEdit(app, chat);
        await card.undoFirst.check();
        await card.resend.click();
        await expect(card.undoQuestion).toBeVisible();
        await card.root.scrollIntoViewIfNeeded();
        await app.page.screenshot({ path: `${SCREENS}/file-resend-undo-${language}-${scheme}.png` });
      });
    }
  }
});

test.describe('Restore files to here, screenshots by language', () => {
  for (const language of ['en', 'ja', 'ko'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`the restore's preview in ${language} (${scheme})`, async ({ app }) => {
        const chat = await chatIn(app.page, language, scheme);
        await twoRuns(app, chat);
        const first = chat.userMessages.first();
        const restore = new RestoreFiles(first);
        await restore.buttonById.click();
        await expect(restore.previewLines).toHaveCount(2);
        await first.scrollIntoViewIfNeeded();
        await app.page.screenshot({ path: `${SCREENS}/file-restore-${language}-${scheme}.png` });
      });
    }
  }
});

test.describe('screenshots by language', () => {
  for (const [language, scheme] of EACH_LANGUAGE_AND_DARK) {
    test(`the changed files and the question in ${language} (${scheme})`, async ({ app }) => {
      const chat = await chatIn(app.page, language, scheme);
      await app.setScript(`${tool('write', { path: 'a.txt', content: 'agent\n' })}, ok`);
      await chat.prompt('Write a.txt');
      // The run's end redraws the turn's rows: Review opened before it would close again.
      await chat.waitForTurnEnd();
      const row = new FileChanges(app.page).row();
      await expect(row.summary).toContainText('+1');
      await row.buttons.first().click();
      await expect(row.review).toBeVisible();
      writeFileSync(join(app.workspace, 'a.txt'), 'mine\n');
      await row.buttons.nth(1).click();
      await expect(row.conflict).toBeVisible();
      await row.root.scrollIntoViewIfNeeded();
      await app.page.screenshot({ path: `${SCREENS}/file-undo-${language}-${scheme}.png` });
    });
  }
});
