// Window size and position remembered between launches: the real file in a temporary folder,
// displays described by their work areas, and a FAKE window (electron-fakes.ts) for the close hook.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseWindowState,
  placeWindow,
  rememberOnClose,
  WindowStateFile,
  type WindowState,
} from '../../../src/main/electron/window-state';
import { FakeWindow } from './electron-fakes';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1415 };
const saved = (x: number, y: number, width = 1000, height = 700, isMaximized = false): WindowState => ({
  bounds: { x, y, width, height },
  isMaximized,
});

describe('placeWindow', () => {
  it('opens at the default size, centred on the primary display, the first time', () => {
    expect(placeWindow(null, [laptop])).toEqual({ x: 170, y: 58, width: 1100, height: 760, isMaximized: false });
  });

  it('keeps a saved position that is on a display, including a secondary one', () => {
    expect(placeWindow(saved(100, 80), [laptop, rightMonitor])).toEqual({
      x: 100,
      y: 80,
      width: 1000,
      height: 700,
      isMaximized: false,
    });
    expect(placeWindow(saved(2000, 300, 1200, 900, true), [laptop, rightMonitor])).toMatchObject({
      x: 2000,
      y: 300,
      isMaximized: true,
    });
  });

  it('moves a window whose monitor was unplugged back onto the primary display, keeping its size', () => {
    expect(placeWindow(saved(2000, 300), [laptop])).toEqual({
      x: 220,
      y: 88,
      width: 1000,
      height: 700,
      isMaximized: false,
    });
  });

  it('moves a window whose title bar is above or below every display', () => {
    expect(placeWindow(saved(100, -400), [laptop])).toMatchObject({ x: 220, y: 88 });
    expect(placeWindow(saved(100, 860), [laptop])).toMatchObject({ x: 220, y: 88 });
  });

  it('keeps a window with enough of its title bar on screen to grab, moves one with a sliver', () => {
    expect(placeWindow(saved(1300, 100), [laptop])).toMatchObject({ x: 1300, y: 100 });
    expect(placeWindow(saved(1400, 100), [laptop])).toMatchObject({ x: 220, y: 88 });
  });

  it('shrinks a window larger than its display, but never below the minimum size', () => {
    expect(placeWindow(saved(0, 0, 3000, 2000), [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 875,
      isMaximized: false,
    });
    const tiny = { x: 0, y: 0, width: 640, height: 480 };
    expect(placeWindow(null, [tiny])).toMatchObject({ width: 800, height: 600 });
  });

  it('still returns a usable size when no display is known', () => {
    expect(placeWindow(null, [])).toEqual({ width: 1100, height: 760, isMaximized: false });
  });
});

describe('parseWindowState', () => {
  it.each([
    ['not JSON', '{', /not JSON/],
    ['a missing field', JSON.stringify({ bounds: { x: 0, y: 0, width: 10 }, isMaximized: false }), /window-state/],
    ['a negative size', JSON.stringify(saved(0, 0, -5, 10)), /window-state/],
    ['a fractional position', JSON.stringify(saved(0.5, 0)), /window-state/],
    ['an absurd coordinate', JSON.stringify(saved(1e9, 0)), /window-state/],
    ['a string', JSON.stringify({ ...saved(0, 0), isMaximized: 'yes' }), /window-state/],
  ])('rejects %s with a message', (_, text, message) => {
    expect(() => parseWindowState(text)).toThrow(message);
  });
});

describe('WindowStateFile', () => {
  let dir: string;
  let warnings: string[];
  let file: WindowStateFile;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'resolute-window-'));
    warnings = [];
    file = new WindowStateFile({ path: join(dir, 'window-state.json'), warn: (m) => warnings.push(m) });
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives null for a missing file without a warning', () => {
    expect(file.load()).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('round-trips what it saved', () => {
    file.save(saved(12, 34, 1111, 777, true));
    expect(file.load()).toEqual(saved(12, 34, 1111, 777, true));
  });

  it('reports a damaged file and falls back to the default, leaving the file as it was', () => {
    writeFileSync(join(dir, 'window-state.json'), '{"bounds": garbage');
    expect(file.load()).toBeNull();
    expect(warnings).toEqual(['window-state.json is not JSON; the window opens at its default size']);
    expect(readFileSync(join(dir, 'window-state.json'), 'utf8')).toBe('{"bounds": garbage');
  });

  it('reports, rather than throws, when the folder is gone', () => {
    rmSync(dir, { recursive: true, force: true });
    file.save(saved(0, 0));
    expect(warnings[0]).toMatch(/^could not save the window position/);
  });

  it('saves the normal bounds and the maximised state when the window closes', () => {
    const win = new FakeWindow();
    win.maximized = true;
    win.normalBounds = { x: 5, y: 6, width: 901, height: 702 };
    rememberOnClose(win, file);
    expect(file.load()).toBeNull();
    win.emit('close');
    expect(file.load()).toEqual({ bounds: { x: 5, y: 6, width: 901, height: 702 }, isMaximized: true });
  });
});
