// The browser mode's transport: an HTTP server on 127.0.0.1 that serves the built renderer and
// carries the shared contract over a WebSocket (/ws). Every page load and every socket must
// carry the per-launch token (the URL's ?token=, remembered in a SameSite=Strict cookie for the
// page's own assets); Host and Origin are checked so another site cannot reach it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { contentSecurityPolicy } from '../../../shared/csp';
import type { SessionEvent } from '../../../shared/events';
import type { EventFrame } from '../../../shared/wire';
import type { CommandRouter } from '../../host/command-router';
import type { EventHub } from '../../host/event-hub';

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
}

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;
const COOKIE = 'resolute_token';
const MAX_FRAME_BYTES = 1024 * 1024;

const CONTENT_SECURITY_POLICY = contentSecurityPolicy('browser');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function assertLoopback(host: string): void {
  if (!LOOPBACK.test(host)) {
    throw new Error(`The browser mode listens on loopback only (127.0.0.1); refusing to bind to ${host}.`);
  }
}

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const token = options.token ?? randomBytes(24).toString('base64url');
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const server = createServer((req, res) => {
    handleHttp(req, res, { token, rendererDir: options.rendererDir, port: portOf(server) }).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error');
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const port = portOf(server);
    if (
      url.pathname !== '/ws' ||
      !hostAllowed(req, port) ||
      !originAllowed(req, port) ||
      !authorised(req, url, token)
    ) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, options));
  });

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
    close: () => closeAll(server, wss),
  };
}

function serveSocket(ws: WebSocket, options: BrowserServerOptions): void {
  const unsubscribe = options.hub.subscribe((event: SessionEvent) => {
    if (ws.readyState !== ws.OPEN) return;
    const frame: EventFrame = { kind: 'event', event };
    ws.send(JSON.stringify(frame));
  });
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
  rendererDir: string;
  port: number;
}

async function handleHttp(req: IncomingMessage, res: ServerResponse, ctx: HttpContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (!hostAllowed(req, ctx.port)) return send(res, 421, 'text/plain; charset=utf-8', 'Wrong host');
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed');
  if (!authorised(req, url, ctx.token)) {
    return send(
      res,
      401,
      'text/plain; charset=utf-8',
      "Resolute: open the URL printed at start-up (it carries this launch's token).",
    );
  }
  const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
  const file = normalize(join(ctx.rendererDir, relative));
  if (!file.startsWith(normalize(ctx.rendererDir) + sep))
    return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
  const body = await readFile(file);
  if (url.searchParams.get('token') === ctx.token) {
    res.setHeader('Set-Cookie', `${COOKIE}=${ctx.token}; Path=/; HttpOnly; SameSite=Strict`);
  }
  send(res, 200, MIME[extname(file)] ?? 'application/octet-stream', body);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });
  res.end(body);
}

function authorised(req: IncomingMessage, url: URL, token: string): boolean {
  const given = url.searchParams.get('token') ?? cookieToken(req.headers.cookie);
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return null;
}

/** DNS-rebinding guard: the Host header must name this loopback server. */
function hostAllowed(req: IncomingMessage, port: number): boolean {
  const hostHeader = req.headers.host ?? '';
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(hostHeader);
}

function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (!origin) return true; // Non-browser clients (tests, tools) send none; the token still applies.
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(origin);
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
