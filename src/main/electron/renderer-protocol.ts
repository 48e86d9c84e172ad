// Where the desktop window's page comes from: a privileged app protocol, resolute://app/, serving
// the built renderer with the CSP header on every answer — not file://, which gives the page no
// origin of its own and takes no response headers. The Vite dev server (ELECTRON_RENDERER_URL)
// is used only by an unpackaged app. main.ts registers the scheme and installs the handler; the
// functions here take Electron's objects as arguments, so they run (and are tested) under Node.
import type { CustomScheme, Protocol } from 'electron';
import { contentSecurityPolicy } from '../../shared/csp';
import { readRendererFile } from '../node/renderer-files';

export const RENDERER_SCHEME = 'resolute';
const RENDERER_HOST = 'app';
/** The page's origin plus "/": what the IPC sender check compares frames against. */
export const rendererBase = `${RENDERER_SCHEME}://${RENDERER_HOST}/`;

/**
 * Standard and secure: the page gets a real origin ('self' in the CSP), as https would give it.
 * codeCache: V8 keeps the compiled scripts between launches, as it does for https (Chromium enables
 * it only there by default), so a window does not compile its bundle cold every time. Nothing is bypassed.
 */
export const rendererSchemePrivileges: CustomScheme = {
  scheme: RENDERER_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

const CONTENT_SECURITY_POLICY = contentSecurityPolicy('electron');

/** The page to load: the dev server's only when the app is not packaged, else the app protocol's. */
export function rendererUrl({ isPackaged, devServerUrl }: { isPackaged: boolean; devServerUrl?: string }): string {
  return !isPackaged && devServerUrl ? devServerUrl : `${rendererBase}index.html`;
}

/** True when the page comes from the dev server (its relaxed CSP then stays as Vite sends it). */
export function usesDevServer(options: { isPackaged: boolean; devServerUrl?: string }): boolean {
  return rendererUrl(options) !== `${rendererBase}index.html`;
}

/** Serve the renderer folder on the app protocol; call once the app is ready. */
export function serveRenderer(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(RENDERER_SCHEME, (request) => rendererResponse(request.url, rendererDir));
}

/** The answer to one request of the page: the file with the CSP header, or 400/404. */
export async function rendererResponse(requestUrl: string, rendererDir: string): Promise<Response> {
  const url = new URL(requestUrl);
  const file =
    url.host === RENDERER_HOST ? await readRendererFile(rendererDir, url.pathname) : { status: 404 as const };
  const headers = {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
  };
  if (file.status !== 200) return new Response(null, { status: file.status, headers });
  return new Response(new Uint8Array(file.body), { status: 200, headers: { ...headers, 'Content-Type': file.type } });
}
