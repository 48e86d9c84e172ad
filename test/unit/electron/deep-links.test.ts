// resolute:// as the OS protocol (docs/hosts.md, "Deep links"): the protocol registered (with the
// script an unpackaged app is started with), macOS's open-url, the first launch's arguments and a
// later launch's through the single-instance lock's second-instance, all forwarded to the window —
// once its page has loaded, on the link channel. app, the window and its webContents are FAKES
// (electron-fakes.ts; the Electron binary cannot run here).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createLinkInbox,
  followPage,
  registerProtocol,
  wireDeepLinks,
  type LaunchShape,
  type ProtocolApp,
} from '../../../src/main/electron/deep-links';
import { claimSingleInstance, focusWindow } from '../../../src/main/electron/single-instance';
import { IPC_CHANNELS } from '../../../src/shared/ipc';
import { FakeEmitter, FakeWindow } from './electron-fakes';

class FakeApp extends FakeEmitter {
  readonly registered: unknown[][] = [];
  setAsDefaultProtocolClient = (...args: unknown[]) => {
    this.registered.push(args);
    return true;
  };
  requestSingleInstanceLock = () => true;

  /** The fake typed as what the wiring declares; open-url's listener gets what emit() is given. */
  asProtocolApp(): ProtocolApp {
    return this as unknown as ProtocolApp;
  }
}

const packaged: LaunchShape = {
  isDefaultApp: false,
  execPath: '/opt/Resolute/resolute',
  argv: ['/opt/Resolute/resolute'],
};

/** The wiring as main.ts makes it: the inbox sends to the window's webContents on the link channel. */
function desktop(launch: LaunchShape = packaged) {
  const app = new FakeApp();
  const win = new FakeWindow('resolute://app/index.html');
  win.visible = false;
  const inbox = createLinkInbox((url) => win.webContents.send(IPC_CHANNELS.link, url));
  followPage(win.webContents, inbox);
  const links = wireDeepLinks({ app: app.asProtocolApp(), launch, inbox, focus: () => focusWindow(win) });
  claimSingleInstance(app, (argv) => links.secondInstance(argv));
  const sent = () => win.webContents.sent.filter((m) => m.channel === IPC_CHANNELS.link).map((m) => m.payload);
  return { app, win, sent };
}

describe('the protocol', () => {
  it('is registered as resolute, bare when packaged', () => {
    expect(desktop().app.registered).toEqual([['resolute']]);
  });

  it('names electron and the script when unpackaged (`electron .`), so the OS starts the app', () => {
    const app = new FakeApp();
    registerProtocol(app, {
      isDefaultApp: true,
      execPath: '/usr/bin/electron',
      argv: ['/usr/bin/electron', 'out/main'],
    });
    expect(app.registered).toEqual([['resolute', '/usr/bin/electron', [resolve('out/main')]]]);
  });
});

describe('links from the OS reach the window', () => {
  it("macOS's open-url: the default is prevented, the window comes forward, the link goes once the page has loaded", () => {
    const { app, win, sent } = desktop();
    let prevented = false;
    app.emit('open-url', { preventDefault: () => (prevented = true) }, 'resolute://chat/abc');
    expect(prevented).toBe(true);
    expect(win.calls).toEqual(['show', 'focus']);
    expect(sent()).toEqual([]);
    win.webContents.emit('did-finish-load');
    expect(sent()).toEqual(['resolute://chat/abc']);
    app.emit('open-url', { preventDefault: () => undefined }, 'resolute://new?prompt=hi');
    expect(sent()).toEqual(['resolute://chat/abc', 'resolute://new?prompt=hi']);
  });

  it("the first launch's arguments (Windows, Linux): only the resolute:// one", () => {
    const { win, sent } = desktop({
      ...packaged,
      argv: ['/opt/Resolute/resolute', '--flag', 'resolute://new?prompt=x'],
    });
    win.webContents.emit('did-finish-load');
    expect(sent()).toEqual(['resolute://new?prompt=x']);
  });

  it("a second launch's argv through the single-instance lock, forwarded to the running window", () => {
    const { app, win, sent } = desktop();
    win.webContents.emit('did-finish-load');
    app.emit('second-instance', {}, ['C:\\Resolute\\Resolute.exe', 'resolute://mcp/add?name=a&config=e30='], 'C:\\');
    app.emit('second-instance', {}, ['C:\\Resolute\\Resolute.exe'], 'C:\\');
    expect(sent()).toEqual(['resolute://mcp/add?name=a&config=e30=']);
    expect(win.calls).toEqual(['show', 'focus']);
  });

  it('links wait while the page reloads, and anything not a resolute:// link is dropped', () => {
    const { app, win, sent } = desktop();
    win.webContents.emit('did-finish-load');
    win.webContents.emit('did-start-loading');
    app.emit('open-url', { preventDefault: () => undefined }, 'resolute://chat/later');
    app.emit('open-url', { preventDefault: () => undefined }, 'file:///etc/passwd');
    expect(sent()).toEqual([]);
    win.webContents.emit('did-finish-load');
    expect(sent()).toEqual(['resolute://chat/later']);
  });

  it('keeps only the newest links of a flood that came before the page', () => {
    const { app, win, sent } = desktop();
    for (let i = 0; i < 20; i++) app.emit('open-url', { preventDefault: () => undefined }, `resolute://chat/c${i}`);
    win.webContents.emit('did-finish-load');
    expect(sent()).toEqual(Array.from({ length: 8 }, (_, i) => `resolute://chat/c${i + 12}`));
  });
});
