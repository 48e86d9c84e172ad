// The Electron window's hardening (docs/hosts.md, "The Electron window"): the webPreferences
// every window gets, navigation and new windows denied, permission requests and checks denied, the
// CSP header (from src/shared/csp.ts; the app protocol sets it on the page's own answers, see
// renderer-protocol.ts), and the IPC sender check.
import {
  app,
  session,
  shell,
  type BrowserWindow,
  type WebContents,
  type WebFrameMain,
  type WebPreferences,
} from 'electron';
import { contentSecurityPolicy } from '../../shared/csp';

const CONTENT_SECURITY_POLICY = contentSecurityPolicy('electron');

export function hardenedWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: true,
  };
}

/**
 * Process-wide guards: CSP on every response, no permissions, no webviews, no navigation.
 * `isDevServer`: the page comes from Vite's dev server (an unpackaged app only, see renderer-protocol.ts),
 * whose meta CSP is relaxed for its inline preamble (electron.vite.config.ts); the strict header applies to builds.
 */
export function installGlobalGuards({ isDevServer }: { isDevServer: boolean }): void {
  if (!isDevServer)
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
      });
    });
  // Requests (a prompt) and checks (navigator.permissions, feature probes) alike: the page needs none.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.on('will-navigate', (event, url) => {
      if (url !== contents.getURL()) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      // Links in replies (target=_blank) open in the OS browser, http(s) only; the app never opens a second window.
      if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

/** IPC is answered only for our own window's top frame, loaded from our own renderer. */
export function isTrustedSender(
  win: BrowserWindow | null,
  sender: WebContents,
  frame: WebFrameMain | null,
  rendererUrl: string,
): boolean {
  if (!win || win.isDestroyed() || sender !== win.webContents || !frame) return false;
  if (frame !== sender.mainFrame) return false;
  return frame.url.startsWith(rendererUrl);
}
