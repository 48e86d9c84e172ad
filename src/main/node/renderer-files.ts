// The built renderer's files as both hosts that serve them read them — the browser mode over HTTP
// (browser-server.ts) and the desktop window over its app protocol (electron/renderer-protocol.ts):
// a URL path resolved inside the renderer folder only, never outside it, with its MIME type.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

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

export type RendererFile = { status: 200; body: Buffer; type: string } | { status: 400 | 404 };

/** The file a URL path names ("/" is index.html): 400 for a malformed % escape, 404 outside the folder or missing. */
export async function readRendererFile(rendererDir: string, pathname: string): Promise<RendererFile> {
  let relative: string;
  try {
    relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  } catch {
    return { status: 400 };
  }
  const file = normalize(join(rendererDir, relative));
  if (!file.startsWith(normalize(rendererDir) + sep)) return { status: 404 };
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return { status: 404 };
  return { status: 200, body: await readFile(file), type: MIME[extname(file)] ?? 'application/octet-stream' };
}
