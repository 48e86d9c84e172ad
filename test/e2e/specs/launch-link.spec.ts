// The browser mode opens its window without putting anything of its launch on a command line
// (README, "How the browser mode opens"): the app is started as a person starts it (no --no-open)
// with a stub `chromium` first in PATH that records its arguments and speaks the DevTools pipe.
// The arguments hold a blank app page only; the one-time launch link comes over the pipe, and the
// real Chromium (Playwright) loading it gets a working app that survives a reload once the window
// says it got the page; a second use is refused; someone else loading it first gets a page that
// never connects; the printed URL, the person's own to paste, still works.
import { chromium, type Browser } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../fixtures/chromium';
import { ChatPage } from '../pages/chat-page';

const CLI = join(import.meta.dirname, '..', '..', '..', 'out', 'main', 'cli.js');

let root = '';
let child: ChildProcess | null = null;
let browser: Browser | null = null;
let output = '';

test.beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-launch-'));
  output = '';
});

test.afterEach(async () => {
  await browser?.close();
  browser = null;
  if (child?.exitCode === null) child.kill('SIGTERM');
  await new Promise((resolve) => (child?.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  rmSync(root, { recursive: true, force: true });
});

/**
 * A `chromium` that writes its arguments, one a line, and answers Resolute over the DevTools pipe
 * (fd 3 in, fd 4 out) as the app window would — a blank app page, attached and navigated — writing
 * the URL it is sent to `<argv>.nav`. It reports its own load of that URL as the status the test
 * writes to `<argv>.status` (the test's browser does the loading), and never shows a window.
 */
function stubBrowser(argvFile: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const script = `#!${process.execPath}
const fs = require('node:fs');
const argv = ${JSON.stringify(argvFile)};
fs.writeFileSync(argv + '.tmp', process.argv.slice(2).join('\\n'));
fs.renameSync(argv + '.tmp', argv);
const out = fs.createWriteStream(null, { fd: 4 });
const send = (message) => out.write(JSON.stringify(message) + '\\0');
const page = (url) => ({ targetInfo: { targetId: 'T', type: 'page', url } });
let pending = '';
fs.createReadStream(null, { fd: 3, encoding: 'utf8' })
  .on('data', (chunk) => {
    const messages = (pending + chunk).split('\\0');
    pending = messages.pop();
    for (const text of messages) answer(JSON.parse(text));
  })
  .on('end', () => process.exit(0));
function answer({ id, method, params, sessionId }) {
  if (method === 'Browser.close') process.exit(0);
  const result = method === 'Target.attachToTarget' ? { sessionId: 'S' } : {};
  send({ id, result, ...(sessionId ? { sessionId } : {}) });
  if (method === 'Target.setDiscoverTargets') send({ method: 'Target.targetCreated', params: page('data:text/html,') });
  if (method !== 'Page.navigate') return;
  fs.writeFileSync(argv + '.nav.tmp', params.url);
  fs.renameSync(argv + '.nav.tmp', argv + '.nav');
  const waiting = setInterval(() => {
    if (!fs.existsSync(argv + '.status')) return;
    clearInterval(waiting);
    const status = Number(fs.readFileSync(argv + '.status', 'utf8'));
    const response = { type: 'Document', response: { url: params.url, status } };
    send({ method: 'Network.responseReceived', sessionId: 'S', params: response });
    send({ method: 'Target.targetInfoChanged', params: page(params.url) });
  }, 20);
}
`;
  writeFileSync(join(bin, 'chromium'), script);
  chmodSync(join(bin, 'chromium'), 0o755);
  return bin;
}

async function until<T>(probe: () => T | undefined | null | false, what: string): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}; output so far:\n${output}`);
}

/** Start the app as a person does, on the stub browser; what the browser was given. */
async function startApp(): Promise<{
  printed: string;
  token: string;
  argv: string[];
  launchUrl: URL;
  argvFile: string;
}> {
  const argvFile = join(root, 'argv.txt');
  const bin = stubBrowser(argvFile);
  child = spawn(
    process.execPath,
    [CLI, '--mode', 'web', '--port', '0', '--data-dir', join(root, 'data'), '--workspace', join(root, 'ws')],
    {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, DISPLAY: ':99', WAYLAND_DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const printed = await until(() => /running at (\S+)/.exec(output)?.[1], 'the printed URL');
  const token = new URL(printed).searchParams.get('token') ?? '';
  const argv = (await until(() => existsSync(argvFile) && readFileSync(argvFile, 'utf8'), 'the browser started')).split(
    '\n',
  );
  const nav = await until(() => existsSync(`${argvFile}.nav`) && readFileSync(`${argvFile}.nav`, 'utf8'), 'the link');
  return { printed, token, argv, launchUrl: new URL(nav), argvFile };
}

test('the window gets a one-time launch link over its pipe, nothing on its command line; the link works once, the printed URL always', async () => {
  test.skip(test.info().project.name === 'electron', 'the browser mode only');
  test.skip(process.platform !== 'linux', 'the stub browser is a script found through PATH');
  const { printed, token, argv, launchUrl, argvFile } = await startApp();
  expect(token).toMatch(/^[\w-]{20,}$/);

  // Nothing of the token, the link or even the port on the browser's command line: a blank app page.
  const origin = new URL(printed).origin;
  expect(argv.filter((arg) => arg.includes(token) || arg.includes(origin) || arg.includes('launch='))).toEqual([]);
  expect(argv).toContain('--app=data:text/html,');
  // The link it was sent over the pipe carries a one-time code.
  expect(launchUrl.origin).toBe(origin);
  expect([...launchUrl.searchParams.keys()]).toEqual(['launch']);
  expect(launchUrl.searchParams.get('launch')).not.toBe(token);

  // The real Chromium loading the link as the window: the window says it got the page, the app
  // connects, the link leaves the address, a reload keeps working.
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const page = await (await browser.newContext()).newPage();
  const loaded = await page.goto(launchUrl.href);
  writeFileSync(`${argvFile}.status`, String(loaded?.status()));
  const chat = new ChatPage(page);
  await expect(chat.input).toBeVisible();
  await expect(page.getByTestId('connection-status')).toBeHidden();
  expect(page.url()).toBe(`${launchUrl.origin}/`);
  await page.reload();
  await chat.prompt('still here after a reload');
  await expect(chat.lastAssistant()).toContainText('Simulated reply');

  // A second use of the link is refused, and the terminal notes it.
  const again = await fetch(launchUrl.href);
  expect(again.status).toBe(410);
  expect(await again.text()).not.toContain(token);
  const other = await (await browser.newContext()).newPage();
  await other.goto(launchUrl.href);
  await expect(other.locator('body')).toContainText('already used');
  await until(() => output.includes('launch link was presented again'), 'the note in the terminal');

  // The printed URL, pasted by the person, still opens the app.
  const pasted = await (await browser.newContext()).newPage();
  await pasted.goto(printed);
  await expect(new ChatPage(pasted).input).toBeVisible();
});

test('someone else loading the link first gets a page that never connects, and the refused window says so', async () => {
  test.skip(test.info().project.name === 'electron', 'the browser mode only');
  test.skip(process.platform !== 'linux', 'the stub browser is a script found through PATH');
  const { launchUrl, argvFile } = await startApp();
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const stranger = await (await browser.newContext()).newPage();
  expect((await stranger.goto(launchUrl.href))?.status()).toBe(200);
  // The window's own load comes second and is refused; it says so over its pipe.
  const window = await (await browser.newContext()).newPage();
  const refused = await window.goto(launchUrl.href);
  expect(refused?.status()).toBe(410);
  writeFileSync(`${argvFile}.status`, String(refused?.status()));
  await until(() => output.includes('launch link was refused'), 'the terminal to say the window was refused');
  // The stranger's page was never let in, and now its token is dead: it says to open the printed URL.
  await expect(stranger.getByTestId('token-needed')).toContainText('Open the URL Resolute printed');
  await expect(stranger.getByTestId('chat-input')).toHaveCount(0);
});
