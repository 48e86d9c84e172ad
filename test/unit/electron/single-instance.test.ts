// One instance per data folder: the lock, the hand-over to the running instance, and bringing its
// window forward from any state. app and the window are FAKES (electron-fakes.ts; no Electron here).
import { describe, expect, it } from 'vitest';
import { claimSingleInstance, focusWindow } from '../../../src/main/electron/single-instance';
import { FakeEmitter, FakeWindow } from './electron-fakes';

class FakeApp extends FakeEmitter {
  constructor(private readonly gotLock: boolean) {
    super();
  }
  requestSingleInstanceLock = () => this.gotLock;
}

describe('claimSingleInstance', () => {
  it('a second instance gets false (and quits) without listening for anything', () => {
    const app = new FakeApp(false);
    expect(claimSingleInstance(app, () => undefined)).toBe(false);
    expect(app.count('second-instance')).toBe(0);
  });

  it('the first instance is handed each later launch, with its arguments', () => {
    const app = new FakeApp(true);
    const handed: (readonly string[])[] = [];
    expect(claimSingleInstance(app, (argv) => handed.push(argv))).toBe(true);
    app.emit('second-instance', {}, ['resolute'], '/home');
    app.emit('second-instance', {}, ['resolute', 'resolute://chat/abc'], '/home');
    app.emit('second-instance', {}, 'not a list', '/home');
    expect(handed).toEqual([['resolute'], ['resolute', 'resolute://chat/abc'], []]);
  });
});

describe('focusWindow', () => {
  it('restores a minimised window, shows a hidden one, then focuses', () => {
    const win = new FakeWindow();
    win.minimized = true;
    win.visible = false;
    focusWindow(win);
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
  });

  it('only focuses a window that is already on screen', () => {
    const win = new FakeWindow();
    focusWindow(win);
    expect(win.calls).toEqual(['focus']);
  });

  it('does nothing before the window exists or after it was destroyed', () => {
    expect(() => focusWindow(null)).not.toThrow();
    const win = new FakeWindow();
    win.destroyed = true;
    focusWindow(win);
    expect(win.calls).toEqual([]);
  });
});
