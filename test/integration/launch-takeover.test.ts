// Regression test of the browser mode's launch against another local user (docs/hosts.md,
// "Tokens and launch links"): the real app (out/main/cli.js) opens its app window in the real Chromium
// under Xvfb, as this test's user, while a second uid (65534, through setpriv) scans every command
// line it can read and tries to exchange what it finds for the token and change the settings
// (fixtures/launch-attacker.mjs). It must get nothing usable, the settings must stay as they were,
// and the person's window must still come up. Linux only (setpriv, Xvfb, /proc).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rebuildIfStale } from '../../scripts/ensure-build.js';
import { pollUntil } from './fixtures/poll';

const CLI = resolve('out/main/cli.js');
const ATTACKER = resolve('test/integration/fixtures/launch-attacker.mjs');
const OWNED_MARK = '/tmp/resolute-owned';
const canRun =
  process.platform === 'linux' &&
  process.getuid?.() === 0 &&
  ['Xvfb', 'setpriv', 'xdotool'].every((tool) => spawnSync('which', [tool]).status === 0) &&
  existsSync('/usr/bin/chromium');

/**
 * The attacker as uid 65534 must be able to read its script and the `ws` it imports: a checkout in a
 * folder only its owner reads (a fresh clone under `mktemp -d`, 0700) would stop it at the door and
 * fail the test for a reason it is not about. So both are copied into the test's own folder, opened
 * to everyone — what is secret (the data folder) the app itself keeps 0700 inside it.
 */
function readableCopyOfAttacker(folder: string): string {
  const dir = join(folder, 'attacker');
  cpSync(ATTACKER, join(dir, 'launch-attacker.mjs'));
  cpSync(resolve('node_modules/ws'), join(dir, 'node_modules', 'ws'), { recursive: true });
  for (const path of [folder, dir, join(dir, 'node_modules'), join(dir, 'node_modules', 'ws')]) chmodSync(path, 0o755);
  return join(dir, 'launch-attacker.mjs');
}

let xvfb: ChildProcess | null = null;
let display = '';
let root = '';
const children: ChildProcess[] = [];

interface Watched {
  child: ChildProcess;
  out: () => string;
}

describe.skipIf(!canRun)('another local user against the browser mode launch', () => {
  beforeAll(async () => {
    if (!process.env.RESOLUTE_CLI) rebuildIfStale({ quiet: true });
    xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    display = await new Promise<string>((resolveDisplay, reject) => {
      xvfb!.stdio[3]!.once('data', (chunk: Buffer) => resolveDisplay(`:${chunk.toString().trim()}`));
      xvfb!.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
    });
  }, 120_000);

  afterAll(() => {
    xvfb?.kill();
  });

  afterEach(() => {
    for (const child of children.splice(0))
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('gets nothing from /proc/*/cmdline it can exchange for the token, and the settings stay unchanged', async () => {
    root = mkdtempSync(join(tmpdir(), 'resolute-takeover-'));
    const dataDir = join(root, 'data');
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    rmSync(OWNED_MARK, { force: true });
    const attackerScript = readableCopyOfAttacker(root);
    // The attacker is scanning before the app starts: it sees every command line as it appears.
    const attacker = watch(
      spawn(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, attackerScript, dataDir],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      ),
    );
    await waitFor(() => attacker.out().includes('"scans"'), 'the attacker to scan', attacker);

    const app = watch(
      spawn(process.execPath, [CLI, '--mode', 'web', '--port', '0', '--data-dir', dataDir, '--workspace', workspace], {
        env: { ...process.env, DISPLAY: display, WAYLAND_DISPLAY: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    const printed = new URL(await waitFor(() => /running at (\S+)/.exec(app.out())?.[1], 'the printed URL', app));
    await waitFor(() => app.out().includes('app window; closing it stops Resolute'), 'the app window', app);
    // The attacker had every chance: it scanned again after the window opened.
    const scansNow = scanCount(attacker.out());
    await waitFor(() => scanCount(attacker.out()) > scansNow + 100, 'more scans', attacker);

    const steps = attacker
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const tokens = steps.filter((step) => step.kind === 'fetched' && step.token).map((step) => step.token);
    expect(tokens).toEqual([]);
    expect(steps.filter((step) => step.kind === 'socket_open' || step.kind === 'reply')).toEqual([]);

    // The person's window came up on the app (its page's title), and their view of the settings is untouched.
    await waitFor(() => windowTitled('Resolute'), 'the window showing the app', app);
    const settings = await settingsOf(printed);
    expect(settings.tools).toMatchObject({ approval: 'ask' });
    expect(settings.mcp).toMatchObject({ servers: {} });

    process.kill(-attacker.child.pid!, 'SIGKILL');
    process.kill(-app.child.pid!, 'SIGTERM');
    await waitFor(() => app.child.exitCode !== null || app.child.signalCode !== null, 'the app to exit', app);
    expect(app.child.exitCode).toBe(0);
    // And on disk, for the next start.
    const file = join(dataDir, 'settings.json');
    const saved = existsSync(file) ? readFileSync(file, 'utf8') : '';
    expect(saved).not.toContain('owned');
    expect(saved).not.toContain('"auto"');
    expect(existsSync(OWNED_MARK)).toBe(false);
  }, 180_000);
});

function watch(child: ChildProcess): Watched {
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { child, out: () => out };
}

function scanCount(out: string): number {
  const counts = [...out.matchAll(/"scans":(\d+)/g)].map((match) => Number(match[1]));
  return counts.at(-1) ?? 0;
}

function windowTitled(title: string): boolean {
  const found = spawnSync('xdotool', ['search', '--onlyvisible', '--name', `^${title}$`], {
    env: { ...process.env, DISPLAY: display },
    encoding: 'utf8',
  });
  return found.status === 0 && found.stdout.trim() !== '';
}

/** settings.get over the socket, as the person's page asks it with the printed token. */
async function settingsOf(printed: URL): Promise<Record<string, unknown>> {
  const token = printed.searchParams.get('token') ?? '';
  const ws = new WebSocket(`ws://${printed.host}/ws`, ['resolute', `token.${token}`], {
    headers: { Origin: printed.origin },
  });
  await new Promise((resolveOpen, reject) => {
    ws.once('open', resolveOpen);
    ws.once('error', reject);
  });
  const reply = await new Promise<Record<string, unknown>>((resolveReply) => {
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (frame.kind === 'response') resolveReply(frame);
    });
    ws.send(JSON.stringify({ kind: 'request', id: 1, method: 'settings.get', params: {} }));
  });
  ws.close();
  expect(reply.ok).toBe(true);
  return reply.result as Record<string, unknown>;
}

/** Poll `probe`; fails at once, with its output, when the watched process has ended meanwhile. */
function waitFor<T>(probe: () => T | undefined | false, what: string, from: Watched): Promise<T> {
  const orEnded = () => {
    const value = probe();
    if (value || from.child.exitCode === null) return value;
    throw new Error(`the process ended (${from.child.exitCode}) before ${what}:\n${from.out()}`);
  };
  return pollUntil(orEnded, what, {
    timeoutMs: 90_000,
    intervalMs: 50,
    detail: () => `; output so far:\n${from.out()}`,
  });
}
