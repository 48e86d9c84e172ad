// A launch link presented twice (docs/hosts.md, "Tokens and launch links"), on a real server and a
// real app: when someone else spends a window's link first, their socket waits — hearing nothing,
// doing nothing — and is closed once the window says it was refused, so what they asked for never
// happens; when the window came first, the second comer gets nothing; a file's link presented a
// second time has its token withdrawn and its sockets closed. A guessed code is not a race.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchApp, parseCommonFlags, type LaunchedApp } from '../../src/main/modes/launch';
import { startBrowserServer, type BrowserServer } from '../../src/main/modes/browser/browser-server';

let app: LaunchedApp;
let server: BrowserServer;
let dir: string;
let warnings: boolean[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-race-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Resolute</title>');
  app = await launchApp(parseCommonFlags(['--data-dir', join(dir, 'data')]), 'browser');
  server = await startBrowserServer({
    router: app.router,
    hub: app.hub,
    rendererDir,
    onLaunchLinkReused: (revoked) => warnings.push(revoked),
  });
});

beforeEach(() => {
  warnings = [];
});

afterAll(async () => {
  await server.close();
  await app.services.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const origin = () => `http://127.0.0.1:${server.port}`;
const EVIL_PATCH = {
  tools: { approval: 'auto' },
  mcp: { servers: { owned: { command: '/bin/sh', args: ['-c', 'true'] } } },
};

/** GET a launch link as a browser would: its status and the token in the page, if any. */
async function load(link: string): Promise<{ status: number; token: string | null }> {
  const answer = await fetch(link);
  const page = await answer.text();
  return { status: answer.status, token: /name="resolute-launch-token" content="([\w-]+)"/.exec(page)?.[1] ?? null };
}

interface Client {
  ws: WebSocket;
  /** What happened to the socket so far: `open`, replies as `reply:<ok>`, `closed:<code>`. */
  log: string[];
  closed: Promise<number>;
}

/** A socket with `token`, which sends `settings.update` with EVIL_PATCH as soon as it is open. */
function client(token: string): Client {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, ['resolute', `token.${token}`], {
    headers: { Origin: origin() },
  });
  const log: string[] = [];
  ws.on('open', () => {
    log.push('open');
    ws.send(JSON.stringify({ kind: 'request', id: 1, method: 'settings.update', params: { patch: EVIL_PATCH } }));
  });
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as { kind: string; ok?: boolean };
    if (frame.kind === 'response') log.push(`reply:${frame.ok}`);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  void closed.then((code) => log.push(`closed:${code}`));
  return { ws, log, closed };
}

function untouched(): void {
  const settings = app.services.settings.get();
  expect(settings.tools.approval).toBe('ask');
  expect(settings.mcp.servers).toEqual({});
}

describe('a launch link presented twice', () => {
  it('someone else first: their socket waits and is closed when the window is refused; nothing they asked for happens', async () => {
    const { url, launch } = server.launchLink('window');
    const stranger = await load(url);
    expect(stranger).toMatchObject({ status: 200 });
    const intruder = client(stranger.token ?? '');
    // The window's own load comes second and is refused: the race, seen.
    expect(await load(url)).toEqual({ status: 410, token: null });
    expect(warnings).toEqual([false]);
    expect(intruder.log).toEqual([]); // not even let in: it hears nothing
    launch.revoke(); // what the window reports (app-window.ts onLoaded(false) → open-app.ts)
    expect(await intruder.closed).toBe(4401);
    expect(intruder.log.filter((entry) => entry.startsWith('reply'))).toEqual([]);
    untouched();
    // Its token stays dead.
    const again = client(stranger.token ?? '');
    expect(await again.closed).toBe(4401);
    expect(again.log).toEqual(['open', 'closed:4401']);
    untouched();
  });

  it('the window first: the second comer gets nothing, the window works on', async () => {
    const { url, launch } = server.launchLink('window');
    const window = await load(url);
    launch.confirm();
    expect(await load(url)).toEqual({ status: 410, token: null });
    expect(warnings).toEqual([false]);
    const own = client(window.token ?? '');
    own.ws.on('message', () => own.ws.close());
    await own.closed;
    expect(own.log.slice(0, 2)).toEqual(['open', 'reply:true']);
    app.services.settings.update({ tools: { approval: 'ask' }, mcp: { servers: { owned: null } } });
  });

  it("a window's socket is let in once the window's word comes", async () => {
    const { url, launch } = server.launchLink('window');
    const window = await load(url);
    const own = client(window.token ?? '');
    expect(own.log).toEqual([]);
    launch.confirm();
    await new Promise<void>((resolve) => own.ws.once('message', () => resolve()));
    expect(own.log).toEqual(['open', 'reply:true']);
    own.ws.close();
    app.services.settings.update({ tools: { approval: 'ask' }, mcp: { servers: { owned: null } } });
  });

  it("a file's link presented again: its token is withdrawn and its sockets closed", async () => {
    const { url } = server.launchLink('file');
    const first = await load(url);
    const holder = client(first.token ?? '');
    await new Promise<void>((resolve) => holder.ws.once('message', () => resolve()));
    app.services.settings.update({ tools: { approval: 'ask' }, mcp: { servers: { owned: null } } });
    expect(await load(url)).toEqual({ status: 410, token: null });
    expect(warnings).toEqual([true]);
    expect(await holder.closed).toBe(4401);
    expect(await client(first.token ?? '').closed).toBe(4401);
  });

  it('a code never issued is refused without a warning', async () => {
    server.launchLink('window');
    expect(await load(`${origin()}/?launch=made-up`)).toEqual({ status: 410, token: null });
    expect(warnings).toEqual([]);
  });
});
