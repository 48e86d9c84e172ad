// The agent's tools through the real UI in Chromium (browser mode), the simulated model calling
// them (tool:NAME:ARGS steps): an approval card allowed from the keyboard and one denied with Esc,
// a bash card with its output and exit code (and what it printed, after a reload mid-run), a sandbox_security abort shown as an errored turn
// (with Continue) and found by the history's errored filter, the workspace path field, and a retried
// attempt that calls a tool ending the banner once it streams.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { ToolsPage } from '../pages/tools-page';
import { tool } from '../../fixtures/sim-steps';

test('an approval card, allowed from the keyboard, writes the file and the model sees it', async ({ app }) => {
  await app.setScript(`${tool('write', { path: 'hello.txt', content: 'Hello, tools!\n' })}, ok`);
  const chat = new ChatPage(app.page);
  const tools = new ToolsPage(app.page);
  await chat.prompt('Write hello.txt');
  await expect(tools.approval).toBeVisible();
  await expect(tools.approval).toContainText('hello.txt');
  await expect(tools.approvalDiff).toContainText('+Hello, tools!');
  // A row of the chat's list, right under the card of the call it asks about.
  const rows = chat.transcriptRows;
  await expect(tools.approvalIn(rows.last())).toBeVisible();
  await expect(rows.nth(-2)).toHaveAttribute('data-testid', 'tool-card');
  // Keyboard-first: the card has the focus; A allows once.
  await expect(tools.allowOnce).toBeFocused();
  await app.page.keyboard.press('a');
  await expect(tools.approval).toBeHidden();
  await expect(tools.card('write')).toHaveAttribute('data-status', 'done');
  await expect(chat.lastAssistant()).toContainText('the tool returned "Wrote 14 bytes to hello.txt."');
  expect(readFileSync(join(app.workspace, 'hello.txt'), 'utf8')).toBe('Hello, tools!\n');
  const requests = await app.requests();
  expect(requests).toHaveLength(2);
  expect(requests[1].lastToolResult).toBe('Wrote 14 bytes to hello.txt.');
});

test('Esc denies: nothing runs and the model is told', async ({ app }) => {
  await app.setScript(`${tool('bash', { command: 'touch should-not-exist.txt' })}, ok`);
  const chat = new ChatPage(app.page);
  const tools = new ToolsPage(app.page);
  await chat.prompt('Make a file');
  await expect(tools.approvalCommand).toHaveText('$ touch should-not-exist.txt');
  await app.page.keyboard.press('Escape');
  await expect(tools.approval).toBeHidden();
  await expect(tools.card('bash')).toHaveAttribute('data-status', 'denied');
  await expect(chat.lastAssistant()).toContainText('The user denied this tool call');
  expect(existsSync(join(app.workspace, 'should-not-exist.txt'))).toBe(false);
  expect((await app.requests())[1].lastToolResult).toMatch(/^The user denied this tool call/);
});

test('a bash card shows the command, its output and exit code; "for this session" stops asking', async ({ app }) => {
  await app.setScript(
    `${tool('bash', { command: 'echo first; echo oops >&2; exit 4' })}, ${tool('bash', { command: 'echo second' })}, ok`,
  );
  const chat = new ChatPage(app.page);
  const tools = new ToolsPage(app.page);
  await chat.prompt('Run two commands');
  await tools.allowSession.click();
  await expect(tools.cards).toHaveCount(2);
  await expect(chat.lastAssistant()).toContainText('the tool returned "second"');
  await expect(tools.approval).toBeHidden();
  const first = tools.cards.first();
  await expect(tools.status(first)).toHaveText('exit code 4');
  await tools.open(first);
  await expect(tools.output(first)).toHaveText('first\noops\n\nCommand exited with code 4');
  await expect(tools.command(first)).toHaveText('$ echo first; echo oops >&2; exit 4');
});

test('a reload while bash runs keeps what it printed on its card, and the rest follows', async ({ app }) => {
  // Printed, then a wait for the test's word (a file it makes once the reloaded page showed the
  // running card), where a 5 s sleep raced the reload on a loaded machine; the marker file says the
  // first line is out.
  const command = 'echo first-line; touch started; while [ ! -e go ]; do sleep 0.1; done; echo second-line';
  await app.setScript(`${tool('bash', { command })}, ok`);
  const chat = new ChatPage(app.page);
  const tools = new ToolsPage(app.page);
  await chat.prompt('Run the slow one');
  await tools.allowOnce.click();
  await expect(tools.output(tools.card('bash'))).toContainText('first-line');
  await expect.poll(() => existsSync(join(app.workspace, 'started'))).toBe(true);
  await app.page.reload();
  // While the call still runs (its end would bring the whole output anyway): its first line, from the snapshot.
  const running = tools.output(tools.runningCard('bash'));
  await expect(running).toContainText('first-line');
  await expect(running).not.toContainText('second-line');
  writeFileSync(join(app.workspace, 'go'), '');
  const output = tools.output(tools.card('bash'));
  await expect(output).toContainText('second-line');
  await expect(chat.lastAssistant()).toContainText('the tool returned');
});

test('a sandbox_security abort is an errored turn, offers Continue, and is in the errored filter', async ({ app }) => {
  await app.setScript(`${tool('read', { path: '../../etc/passwd' })}, ok`);
  const chat = new ChatPage(app.page);
  const tools = new ToolsPage(app.page);
  await chat.prompt('Read the password file');
  const card = chat.erroredCard();
  await expect(card.root).toHaveAttribute('data-category', 'sandbox_security');
  await expect(card.message).toContainText('leaves the workspace');
  await expect(tools.card('read')).toHaveAttribute('data-category', 'sandbox_security');
  expect(await app.requests()).toHaveLength(1);
  await expect(tools.continueButton).toBeVisible();
  await expect(chat.transcriptRows.last()).toHaveAttribute('data-testid', 'continue-bar');

  const history = new HistoryPage(app.page);
  await history.open();
  await history.erroredOnly.check();
  await expect(history.erroredTurns.first()).toContainText('Sandbox security');
  await expect(history.erroredTurns.first()).toContainText('leaves the workspace');

  // Continue: the model tries again after seeing what happened (a new request, no retry chain).
  await chat.open();
  await tools.continueButton.click();
  await expect(chat.lastAssistant()).toContainText('the tool returned "Refused');
  expect(await app.requests()).toHaveLength(2);
  await expect(tools.continueButton).toBeHidden();
});

test('the workspace path field: a bad path is refused with its reason, a good one is used', async ({ app }) => {
  const tools = new ToolsPage(app.page);
  await expect(tools.workspacePath).toContainText(app.workspace.split('/').pop()!);
  await tools.workspaceButton.click();
  await tools.workspaceInput.fill('/no/such/folder');
  await tools.workspaceApply.click();
  await expect(tools.workspaceError).toHaveText('The folder /no/such/folder does not exist.');
  const other = join(app.workspace, 'project');
  mkdirSync(other);
  await tools.workspaceInput.fill(other);
  await tools.workspaceApply.click();
  await expect(tools.workspaceForm).toBeHidden();
  await expect(tools.workspacePath).toContainText('project');

  await app.setScript(`${tool('write', { path: 'in-project.txt', content: 'x' })}, ok`);
  await new ChatPage(app.page).prompt('write');
  await tools.allowOnce.click();
  await expect(tools.card('write')).toHaveAttribute('data-status', 'done');
  expect(existsSync(join(other, 'in-project.txt'))).toBe(true);
});

test.describe('a retried attempt that calls a tool', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503,tool:bash:{"command":"ls"},auth' } });

  test('recovers the chain once it streams: no banner, no Retrying card under the approval', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('list the files');
    const tools = new ToolsPage(app.page);
    await expect(tools.approval).toBeVisible();
    await expect(new RetryBanner(app.page).root).toBeHidden();
    await expect(chat.erroredCardsWithStatus('retrying')).toHaveCount(0);
    await expect(chat.recoveredNote).toContainText('Recovered after 1 retry');
  });
});
