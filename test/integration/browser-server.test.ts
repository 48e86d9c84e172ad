// The browser mode's guard: it serves and accepts sockets only with this launch's token, from
// this host and origin, binds to loopback only, and answers malformed frames with errors while
// staying up. Real HTTP and a real WebSocket against a real app (data in a temp folder).
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, parseCommonFlags, type LaunchedApp } from '../../src/main/modes/launch';
import { assertLoopback, startBrowserServer, type BrowserServer } from '../../src/main/modes/browser/browser-server';

let app: LaunchedApp;
let server: BrowserServer;
let dir: string;
let reusedLinks = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-web-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Resolute</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'index-AbCd12_-.js'), ASSET);
  app = await launchApp(parseCommonFlags(['--data-dir', join(dir, 'data')]), 'browser');
  server = await startBrowserServer({
    router: app.router,
    hub: app.hub,
    rendererDir,
    onLaunchLinkReused: () => (reusedLinks += 1),
  });
});

afterAll(async () => {
  await server.close();
  await app.services.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${server.port}`;
const ASSET = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;

/** A socket as the page opens it: its Origin, the token offered as a subprotocol. */
function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, ['resolute', `token.${server.token}`], {
      headers: { Origin: `http://127.0.0.1:${server.port}` },
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function ask(ws: WebSocket, frame: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.kind !== 'response') return;
      ws.off('message', onMessage);
      resolve(message);
    };
    ws.on('message', onMessage);
    ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  });
}

type Attempt = { kind: 'refused'; status: number } | { kind: 'closed'; code: number } | { kind: 'answered' };

/** Open a socket as a client would and report what happened: refused, closed, or an answer to app.info. */
function attempt(headers: Record<string, string>, protocols: string[] = [], path = '/ws'): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, protocols, { headers });
    ws.once('unexpected-response', (_req, res) => resolve({ kind: 'refused', status: res.statusCode ?? 0 }));
    ws.once('close', (code) => resolve({ kind: 'closed', code }));
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ kind: 'request', id: 1, method: 'app.info', params: {} })));
    ws.on('message', (data: Buffer) => {
      if ((JSON.parse(data.toString()) as { kind: string }).kind !== 'response') return;
      ws.close();
      resolve({ kind: 'answered' });
    });
  });
}

const pageOrigin = () => ({ Origin: `http://127.0.0.1:${server.port}` });

describe('what a page load hands out grants no control', () => {
  it('the cookie set by a page load is not the token and opens no socket (cookies reach every port)', async () => {
    const page = await fetch(server.url);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).not.toBe('');
    expect(cookie).not.toContain(server.token);
    const withCookie = await attempt({ ...pageOrigin(), Cookie: cookie });
    expect(withCookie.kind).not.toBe('answered');
    // It still loads the page's own assets: that is all it is for.
    expect((await fetch(`${base()}/`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('refuses a socket that presents the token without the page Origin', async () => {
    expect(await attempt({}, [], `/ws?token=${server.token}`)).toEqual({ kind: 'refused', status: 403 });
    expect(await attempt({}, ['resolute', `token.${server.token}`])).toEqual({ kind: 'refused', status: 403 });
  });

  it('accepts the token the page holds, presented as a subprotocol from its own Origin', async () => {
    expect(await attempt(pageOrigin(), ['resolute', `token.${server.token}`])).toEqual({ kind: 'answered' });
  });

  it('closes a socket without a valid token with 4401, which a page can read (it says what to do)', async () => {
    expect(await attempt(pageOrigin(), ['resolute'])).toEqual({ kind: 'closed', code: 4401 });
    expect(await attempt(pageOrigin(), ['resolute', 'token.wrong'])).toEqual({ kind: 'closed', code: 4401 });
  });

  it('answers 400, not 500, to a malformed % escape', async () => {
    expect((await fetch(`${base()}/%E0%A4%A?token=${server.token}`)).status).toBe(400);
  });
});

describe('what the page loads, and how it is cached', () => {
  it('sends a hashed asset compressed as the browser accepts it, cached for good; the page itself checked every load', async () => {
    const asset = `${base()}/assets/index-AbCd12_-.js?token=${server.token}`;
    for (const encoding of ['br', 'gzip']) {
      const answer = await fetch(asset, { headers: { 'Accept-Encoding': encoding } });
      expect(answer.headers.get('content-encoding')).toBe(encoding);
      expect(answer.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(await answer.text()).toBe(ASSET); // fetch decodes it: the bytes are the file's
    }
    const plain = await fetch(asset, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(ASSET);
    const page = await fetch(server.url);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${base()}/`)).headers.get('cache-control')).toBe('no-store');
  });
});

describe('browser mode guard', () => {
  it('a launch link carries no token, serves the page with its own token once, then is refused', async () => {
    const { url: link, launch } = server.launchLink('file');
    expect(link).not.toContain(server.token);
    expect(server.launchLink('file').url).not.toBe(link);
    // A HEAD (a link checker, a preview) does not spend it, nor warn.
    const before = reusedLinks;
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(410);
    const first = await fetch(link);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(
      `<!doctype html><meta name="resolute-launch-token" content="${launch.token}"><title>Resolute</title>`,
    );
    expect(launch.token).not.toBe(server.token);
    expect(first.headers.get('set-cookie')).toMatch(/^resolute_assets_\d+=/);
    expect(first.headers.get('set-cookie')).not.toContain(launch.token);
    expect(reusedLinks).toBe(before);
    const second = await fetch(link);
    expect(second.status).toBe(410);
    const text = await second.text();
    expect(text).toMatch(/works once, and it was already used/);
    expect(text).not.toContain(launch.token);
    expect(reusedLinks).toBe(before + 1);
    // The window's own reload of the spent link (it has the cookie) gets the page, without the token.
    const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
    const reload = await fetch(link, { headers: { cookie } });
    expect(reload.status).toBe(200);
    expect(await reload.text()).not.toContain(launch.token);
    expect(reusedLinks).toBe(before + 1);
    // A code never issued is a guess, not a race: refused, and no warning.
    expect((await fetch(`${base()}/?launch=made-up`)).status).toBe(410);
    expect(reusedLinks).toBe(before + 1);
  });

  it('serves the page only with the token', async () => {
    expect((await fetch(`${base()}/`)).status).toBe(401);
    expect((await fetch(`${base()}/?token=wrong`)).status).toBe(401);
    const ok = await fetch(server.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('refuses a WebSocket from another origin or host, even with the token', async () => {
    const token = ['resolute', `token.${server.token}`];
    expect(await attempt({ Origin: 'https://evil.example' }, token)).toEqual({ kind: 'refused', status: 403 });
    expect(await attempt({ Origin: `http://127.0.0.1:${server.port + 1}` }, token)).toEqual({
      kind: 'refused',
      status: 403,
    });
    expect(await attempt({ ...pageOrigin(), Host: `evil.example:${server.port}` }, token)).toEqual({
      kind: 'refused',
      status: 403,
    });
  });

  it('refuses to bind beyond loopback', async () => {
    expect(() => assertLoopback('0.0.0.0')).toThrow(/loopback only/);
    expect(() => assertLoopback('192.168.1.10')).toThrow(/loopback only/);
    await expect(
      startBrowserServer({ router: app.router, hub: app.hub, rendererDir: dir, host: '0.0.0.0' }),
    ).rejects.toThrow(/loopback only/);
  });

  it('answers good and malformed frames over the socket and stays up', async () => {
    const ws = await connect();
    expect(await ask(ws, 'this is not json')).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await ask(ws, { kind: 'request', id: 1, method: 'nope' })).toMatchObject({
      id: 1,
      ok: false,
      error: { code: 'unknown_command' },
    });
    expect(
      await ask(ws, { kind: 'request', id: 2, method: 'history.get', params: { sessionId: 'missing' } }),
    ).toMatchObject({
      id: 2,
      ok: false,
      error: { code: 'not_found' },
    });
    expect(
      await ask(ws, {
        kind: 'request',
        id: 3,
        method: 'settings.update',
        params: { patch: { retry: { maxRetries: 99 } } },
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: expect.stringMatching(/retry\.maxRetries/) },
    });
    const state = await ask(ws, { kind: 'request', id: 4, method: 'session.getState', params: {} });
    expect(state).toMatchObject({
      id: 4,
      ok: true,
      result: { isRetrying: false, chains: [], decisions: [], model: { isSimulator: true } },
    });
    // The snapshot holds the newest page of turns, not a copy of the agent's runtime context.
    expect(state.result).not.toHaveProperty('messages');
    ws.close();
  });

  it("sends the window agent_end without the run's context, which the hub's other listeners still get whole", async () => {
    const ws = await connect();
    const whole: unknown[] = [];
    const off = app.hub.subscribe((event) => {
      if (event.type === 'agent_end') whole.push(event);
    });
    const sent = new Promise<unknown>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { kind: string; event?: { type: string } };
        if (frame.kind === 'event' && frame.event?.type === 'agent_end') resolve(frame.event);
      });
    });
    const context = [{ role: 'user' as const, content: 'hello', timestamp: 1 }];
    app.hub.publish({ type: 'agent_end', messages: context });
    expect(await sent).toEqual({ type: 'agent_end', messages: [] });
    expect(whole).toEqual([{ type: 'agent_end', messages: context }]);
    off();
    ws.close();
  });

  it('refuses a provider base URL that is not http(s), keeping the old one', async () => {
    const ws = await connect();
    for (const [i, baseUrl] of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,hi',
      'ftp://x/v1',
    ].entries()) {
      expect(
        await ask(ws, {
          kind: 'request',
          id: 20 + i,
          method: 'settings.update',
          params: { patch: { provider: { baseUrl } } },
        }),
        baseUrl,
      ).toMatchObject({
        ok: false,
        error: { code: 'invalid_params', message: expect.stringMatching(/provider\.baseUrl/) },
      });
    }
    const ok = await ask(ws, {
      kind: 'request',
      id: 30,
      method: 'settings.update',
      params: { patch: { provider: { baseUrl: 'http://127.0.0.1:11434/v1' } } },
    });
    expect(ok).toMatchObject({ ok: true, result: { provider: { baseUrl: 'http://127.0.0.1:11434/v1' } } });
    ws.close();
  });

  it('reports the version of package.json', async () => {
    const ws = await connect();
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await ask(ws, { kind: 'request', id: 5, method: 'app.info', params: {} })).toMatchObject({
      ok: true,
      result: { version, host: 'browser' },
    });
    ws.close();
  });

  it('never sends an API key to a client: only masked hints', async () => {
    const ws = await connect();
    const reply = await ask(ws, {
      kind: 'request',
      id: 9,
      method: 'providers.addKey',
      params: { provider: 'openai', apiKey: 'sk-secret-1234567890abcd' },
    });
    expect(JSON.stringify(reply)).not.toContain('sk-secret-1234567890abcd');
    expect(JSON.stringify(reply)).toContain('abcd');
    ws.close();
  });
});
