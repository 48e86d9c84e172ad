// The browser mode opens its window without putting the launch token on any command line
// (README, "How the browser mode opens"): the app is started as a person starts it (no --no-open)
// with a stub `chromium` first in PATH that records its arguments. Those hold a one-time launch
// link and nothing of the token; the real Chromium (Playwright) opening that link gets a working
// app that survives a reload; a second use of the link is refused and the terminal warns; the
// printed URL, the person's own to paste, still works.
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

/** A `chromium` that writes its arguments, one a line, then waits (never shows a window) until Resolute ends. */
function stubBrowser(argvFile: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  // fd 3 is the DevTools pipe Resolute writes to: it reaches its end when Resolute exits.
  const script = `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\nexec cat <&3 >/dev/null\n`;
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

test('the window gets a one-time launch link, not the token; the link works once, the printed URL always', async () => {
  test.skip(test.info().project.name === 'electron', 'the browser mode only');
  test.skip(process.platform !== 'linux', 'the stub browser is a shell script found through PATH');
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
  expect(token).toMatch(/^[\w-]{20,}$/);
  const argv = (await until(() => existsSync(argvFile) && readFileSync(argvFile, 'utf8'), 'the browser started')).split(
    '\n',
  );

  // Nothing of the token on the browser's command line; the app link carries a one-time code.
  expect(argv.filter((arg) => arg.includes(token))).toEqual([]);
  const appArg = argv.find((arg) => arg.startsWith('--app='));
  const launchUrl = new URL(appArg?.slice('--app='.length) ?? 'http://none/');
  expect(launchUrl.origin).toBe(new URL(printed).origin);
  expect([...launchUrl.searchParams.keys()]).toEqual(['launch']);
  expect(launchUrl.searchParams.get('launch')).not.toBe(token);

  // The real Chromium opening the link: the app connects, the link leaves the address, a reload keeps working.
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const page = await (await browser.newContext()).newPage();
  await page.goto(launchUrl.href);
  const chat = new ChatPage(page);
  await expect(chat.input).toBeVisible();
  await expect(page.getByTestId('connection-status')).toBeHidden();
  expect(page.url()).toBe(`${launchUrl.origin}/`);
  await page.reload();
  await chat.prompt('still here after a reload');
  await expect(chat.lastAssistant()).toContainText('Simulated reply');

  // A second use of the link — another program that read it from `ps` — is refused.
  const again = await fetch(launchUrl.href);
  expect(again.status).toBe(410);
  expect(await again.text()).not.toContain(token);
  const other = await (await browser.newContext()).newPage();
  await other.goto(launchUrl.href);
  await expect(other.locator('body')).toContainText('already used');
  await until(() => output.includes('launch link was presented again'), 'the warning in the terminal');

  // The printed URL, pasted by the person, still opens the app.
  const pasted = await (await browser.newContext()).newPage();
  await pasted.goto(printed);
  await expect(new ChatPage(pasted).input).toBeVisible();
});
