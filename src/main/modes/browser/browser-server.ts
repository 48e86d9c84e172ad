// The browser mode's transport: an HTTP server on 127.0.0.1 that serves the built renderer and
// carries the shared contract over a WebSocket (/ws). The per-launch token (the printed URL's
// ?token=) is held by the page and presented only on the socket, as a subprotocol; the cookie a
// page load sets grants the static assets and nothing else, since browsers send cookies to every
// port of a host. A browser Resolute opens gets a one-time launch link instead, through a private
// channel, with a token of that launch's own that a detected race revokes (launch-codes.ts). Host
// and Origin are checked so another site cannot reach it (docs/hosts.md, "Tokens and launch
// links"). The files go compressed, the hashed assets cached for good.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { contentSecurityPolicy } from '../../../shared/csp';
import { SOCKET_PROTOCOL, SOCKET_TOKEN_PREFIX, SOCKET_UNAUTHORIZED } from '../../../shared/wire';
import type { SessionEvent } from '../../../shared/events';
import type { EventFrame } from '../../../shared/wire';
import { PatchEncoder } from '../../../shared/message-patch';
import type { CommandRouter } from '../../router/command-router';
import { windowStream, type EventHub } from '../../router/event-hub';
import { CompressedFiles, pickEncoding } from '../../node/compressed-files';
import { loopbackHostAllowed, loopbackOrigins } from '../../node/loopback';
import { readRendererFile } from '../../node/renderer-files';
import {
  LAUNCH_CODE_TTL_MS,
  Launch,
  LaunchCodes,
  pageWithToken,
  type LaunchOpener,
  type Presented,
} from './launch-codes';

export interface BrowserServerOptions {
  router: CommandRouter;
  hub: EventHub;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** Default 0 = a free port. */
  port?: number;
  /** Only loopback addresses are accepted. Default 127.0.0.1. */
  host?: string;
  /** Fixed token for tests; default a random one per launch. */
  token?: string;
  /**
   * An issued launch link was presented again, not by its window's own reload: someone else may
   * have used it first. `revoked`: its token was withdrawn (a file's link, or its window was refused).
   */
  onLaunchLinkReused?: (revoked: boolean) => void;
}

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  /**
   * A new one-time link for a browser Resolute starts, to hand over a private channel (never a
   * command line, which every local user can read): the page it loads holds a token of its own; a
   * second use, or a use after a few minutes, is refused. A `window` link's token waits for the
   * window's word (`launch.confirm()` / `launch.revoke()`).
   */
  launchLink(opener: LaunchOpener): { url: string; launch: Launch };
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;
// A prompt's attachments travel in its frame: 20 MB of files is about 27 MB as base64 (docs/attachments.md).
const MAX_FRAME_BYTES = 32 * 1024 * 1024;
const TEXT = 'text/plain; charset=utf-8';

const CONTENT_SECURITY_POLICY = contentSecurityPolicy('browser');

export function assertLoopback(host: string): void {
  if (!LOOPBACK.test(host)) {
    throw new Error(`The browser mode listens on loopback only (127.0.0.1); refusing to bind to ${host}.`);
  }
}

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const token = options.token ?? randomBytes(24).toString('base64url');
  // Another random value, so that the cookie, which leaks to every port, carries nothing of the token.
  const assetKey = randomBytes(24).toString('base64url');
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // Answer with our protocol name only: the token offered beside it is never echoed.
    handleProtocols: (offered) => (offered.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
  });
  const compressed = new CompressedFiles();
  const launchCodes = new LaunchCodes();
  const server = createServer((req, res) => {
    const ctx = {
      token,
      assetKey,
      rendererDir: options.rendererDir,
      port: portOf(server),
      compressed,
      launchCodes,
      onLaunchLinkReused: options.onLaunchLinkReused,
    };
    handleHttp(req, res, ctx).catch(() => {
      if (!res.headersSent) send(res, 500, TEXT, 'Internal error');
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const port = portOf(server);
    if (pathOf(req) !== '/ws' || !loopbackHostAllowed(req, port) || !originAllowed(req, port)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    void admit(socketToken(req)).then((launch) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        // Closed after the handshake rather than refused in it, so that the page can read why.
        if (launch === false) return ws.close(SOCKET_UNAUTHORIZED, 'launch token missing or wrong');
        serveSocket(ws, options);
        launch?.onRevoked(() => ws.close(SOCKET_UNAUTHORIZED, 'this launch was withdrawn'));
      }),
    );
  });

  /**
   * Whether a socket's token is let in: null for the printed token, its launch for a launch's
   * token — once confirmed, so an unconfirmed launch's socket waits, hearing and doing nothing —
   * false otherwise.
   */
  async function admit(given: string | null): Promise<Launch | null | false> {
    if (matches(given, token)) return null;
    const launch = given ? launchCodes.byToken(given) : null;
    return launch && (await launch.settled) ? launch : false;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = portOf(server);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    launchLink: (opener) => {
      const launch = launchCodes.issue(opener);
      // A window that never says how its load went is taken as refused once the code is stale.
      setTimeout(() => launch.state !== 'confirmed' && launch.revoke(), LAUNCH_CODE_TTL_MS).unref();
      return { url: `http://${shownHost}:${port}/?launch=${launch.code}`, launch };
    },
    close: () => closeAll(server, wss),
  };
}

function serveSocket(ws: WebSocket, options: BrowserServerOptions): void {
  // A streaming message goes as patches over the socket: bytes ~ the reply, not ~ its length squared.
  const patches = new PatchEncoder();
  const stream = windowStream((event: SessionEvent) => {
    if (ws.readyState !== ws.OPEN) return;
    const frame: EventFrame = { kind: 'event', event: patches.encode(event) };
    ws.send(JSON.stringify(frame));
  });
  const unsubscribeHub = options.hub.subscribe(stream.push);
  const unsubscribe = (): void => {
    unsubscribeHub();
    stream.close();
  };
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? null : data.toString();
    const raw = text ?? '\u0000binary';
    void options.router.dispatch(raw).then((reply) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
    });
  });
  ws.on('close', unsubscribe);
  ws.on('error', unsubscribe);
}

interface HttpContext {
  token: string;
  assetKey: string;
  rendererDir: string;
  port: number;
  compressed: CompressedFiles;
  launchCodes: LaunchCodes;
  onLaunchLinkReused?: (revoked: boolean) => void;
}

const NEEDS_TOKEN =
  "Resolute: this address needs this launch's token. Open the URL Resolute printed when it started " +
  '(http://127.0.0.1:…/?token=…); closing and starting Resolute again prints a new one.';

const LINK_USED =
  'Resolute: this launch link works once, and it was already used (or it is more than a few minutes ' +
  'old). Open the URL Resolute printed when it started (http://127.0.0.1:…/?token=…), or start Resolute again.';

async function handleHttp(req: IncomingMessage, res: ServerResponse, ctx: HttpContext): Promise<void> {
  if (!loopbackHostAllowed(req, ctx.port)) return send(res, 421, TEXT, 'Wrong host');
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, TEXT, 'Method not allowed');
  const url = parseTarget(req.url);
  if (!url) return send(res, 400, TEXT, 'Bad request: the address is not valid');
  const launch = url.searchParams.get('launch');
  const cookie = assetCookieName(ctx.port);
  const byCookie = matches(readCookie(req.headers.cookie, cookie), ctx.assetKey);
  // A launch link's code is taken (spent) on its first GET, by the page itself only.
  const presented =
    launch !== null && req.method === 'GET' && url.pathname === '/' ? presentLaunch(launch, byCookie, ctx) : null;
  const byLaunch = presented?.kind === 'granted' ? presented.launch : null;
  const byToken = byLaunch !== null || matches(url.searchParams.get('token'), ctx.token);
  if (!byToken && !byCookie)
    return send(res, launch === null ? 401 : 410, TEXT, launch === null ? NEEDS_TOKEN : LINK_USED);
  const file = await readRendererFile(ctx.rendererDir, url.pathname);
  if (file.status !== 200)
    return send(res, file.status, TEXT, file.status === 400 ? 'Bad request: malformed % escape' : 'Not found');
  if (byToken) res.setHeader('Set-Cookie', `${cookie}=${ctx.assetKey}; Path=/; HttpOnly; SameSite=Strict`);
  // The page that carries the token is this response's alone: never kept, never compressed from the cache.
  if (byLaunch) return send(res, 200, file.type, pageWithToken(file.body, byLaunch.token));
  const encoded = await ctx.compressed.encode(
    url.pathname,
    file.body,
    file.type,
    pickEncoding(req.headers['accept-encoding']),
  );
  send(res, 200, file.type, encoded.body, {
    'Cache-Control': cacheControl(url.pathname),
    Vary: 'Accept-Encoding',
    ...(encoded.encoding ? { 'Content-Encoding': encoded.encoding } : {}),
  });
}

/**
 * Spend a launch code. An issued code presented again without the window's cookie (so not its own
 * reload) means someone else may have it: a file's launch, whose opener cannot tell who came
 * first, is revoked; a window's is left to the window's word (app-window.ts). A code never issued
 * is a guess and says nothing.
 */
function presentLaunch(code: string, byCookie: boolean, ctx: HttpContext): Presented {
  const presented = ctx.launchCodes.present(code);
  if (presented.kind !== 'spent' || byCookie) return presented;
  if (presented.launch.opener === 'file') presented.launch.revoke();
  ctx.onLaunchLinkReused?.(presented.launch.state === 'revoked');
  return presented;
}

/** Vite names the built assets by their content's hash: kept for good; index.html, which names them, is checked every load. */
const HASHED_ASSET = /^\/assets\/[^/]+-[\w-]{8}\.\w+$/;

function cacheControl(pathname: string): string {
  return HASHED_ASSET.test(pathname) ? 'private, max-age=31536000, immutable' : 'no-cache';
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = { 'Cache-Control': 'no-store' },
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...headers,
  });
  res.end(body);
}

function parseTarget(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://127.0.0.1');
  } catch {
    return null;
  }
}

function pathOf(req: IncomingMessage): string | null {
  return parseTarget(req.url)?.pathname ?? null;
}

function matches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One cookie per port, so two instances on one host do not overwrite each other's. */
function assetCookieName(port: number): string {
  return `resolute_assets_${port}`;
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

/** The token the page offers beside our protocol name: `Sec-WebSocket-Protocol: resolute, token.<token>`. */
function socketToken(req: IncomingMessage): string | null {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',');
  const entry = offered.map((p) => p.trim()).find((p) => p.startsWith(SOCKET_TOKEN_PREFIX));
  return entry ? entry.slice(SOCKET_TOKEN_PREFIX.length) : null;
}

/** Only the page itself: a browser always sends Origin on a socket; a client without one is refused. */
function originAllowed(req: IncomingMessage, port: number): boolean {
  return loopbackOrigins(port).includes(req.headers.origin ?? '');
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo | null)?.port ?? 0;
}

async function closeAll(server: Server, wss: WebSocketServer): Promise<void> {
  for (const client of wss.clients) client.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
