// The main window's options (window-options.ts with security.ts's webPreferences) and the
// process-wide guards (security.ts installGlobalGuards), against a FAKE of Electron's app, session
// and shell (electron-fakes.ts; the Electron binary cannot run here): what each guard does when
// Electron calls it is asserted, not how Electron would call it.
import { contentSecurityPolicy } from '../../../src/shared/csp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEmitter, FakeWebContents } from './electron-fakes';

const electron = vi.hoisted(() => ({
  app: null as unknown as FakeEmitter,
  headerHooks: [] as ((details: object, callback: (response: object) => void) => void)[],
  permissionHandlers: [] as ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void)[],
  openedExternally: [] as string[],
}));

vi.mock('electron', async () => {
  const { FakeEmitter } = await import('./electron-fakes');
  electron.app = new FakeEmitter();
  return {
    app: electron.app,
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (hook: (typeof electron.headerHooks)[number]) => electron.headerHooks.push(hook),
        },
        setPermissionRequestHandler: (handler: (typeof electron.permissionHandlers)[number]) =>
          electron.permissionHandlers.push(handler),
        setPermissionCheckHandler: () => undefined,
      },
    },
    shell: { openExternal: async (url: string) => void electron.openedExternally.push(url) },
  };
});

const { hardenedWebPreferences, installGlobalGuards } = await import('../../../src/main/electron/security');
const CONTENT_SECURITY_POLICY = contentSecurityPolicy('electron');
const { mainWindowOptions } = await import('../../../src/main/electron/window-options');

const placement = { x: 40, y: 50, width: 1000, height: 700, isMaximized: true };

describe('mainWindowOptions', () => {
  const options = (platform: NodeJS.Platform) =>
    mainWindowOptions({
      placement,
      webPreferences: hardenedWebPreferences('/app/out/preload/index.cjs'),
      iconPath: '/app/resources/icons/256x256.png',
      platform,
    });

  it('opens hidden (shown on ready-to-show) where the placement says, never below the minimum size', () => {
    expect(options('linux')).toMatchObject({
      x: 40,
      y: 50,
      width: 1000,
      height: 700,
      minWidth: 800,
      minHeight: 600,
      show: false,
      title: 'Resolute',
    });
    expect(options('linux')).not.toHaveProperty('isMaximized');
  });

  it('sets the icon on Linux and Windows; macOS takes the bundle icon', () => {
    expect(options('linux').icon).toBe('/app/resources/icons/256x256.png');
    expect(options('win32').icon).toBe('/app/resources/icons/256x256.png');
    expect(options('darwin')).not.toHaveProperty('icon');
  });

  it('carries the hardened webPreferences: sandboxed, isolated, no Node, our preload only', () => {
    expect(options('linux').webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    });
  });
});

describe('installGlobalGuards', () => {
  let contents: FakeWebContents;

  beforeEach(() => {
    electron.headerHooks.length = 0;
    electron.permissionHandlers.length = 0;
    electron.openedExternally.length = 0;
    installGlobalGuards({ isDevServer: false });
    contents = new FakeWebContents('file:///app/out/renderer/index.html');
    electron.app.emit('web-contents-created', {}, contents);
  });

  afterEach(() => vi.unstubAllEnvs());

  it('adds the CSP header to every response', () => {
    expect(electron.headerHooks).toHaveLength(1);
    let response: { responseHeaders?: Record<string, string[]> } = {};
    electron.headerHooks[0]({ responseHeaders: { 'X-Other': ['kept'] } }, (r) => (response = r));
    expect(response.responseHeaders).toEqual({
      'X-Other': ['kept'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });

  it('denies every permission request', () => {
    const answers: boolean[] = [];
    electron.permissionHandlers[0]({}, 'notifications', (granted) => answers.push(granted));
    electron.permissionHandlers[0]({}, 'media', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
  });

  it('blocks navigation away from the page and webview attachment', () => {
    const away = { preventDefault: vi.fn() };
    contents.emit('will-navigate', away, 'https://example.com/');
    expect(away.preventDefault).toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('denies new windows; an https link opens in the OS browser, anything else nowhere', () => {
    expect(contents.windowOpenHandler?.({ url: 'https://docs.example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(electron.openedExternally).toEqual(['https://docs.example.com/']);
  });

  it('leaves the CSP to the dev server page under electron-vite dev', () => {
    electron.headerHooks.length = 0;
    installGlobalGuards({ isDevServer: true });
    expect(electron.headerHooks).toHaveLength(0);
  });
});
