// Remembers the main window's size and position between launches in window-state.json in the
// data folder. A damaged file is reported and ignored (the window opens at its default size), and
// a saved position that no longer lands on any display — a monitor unplugged, the resolution
// lowered — is moved back onto the primary one. main.ts passes in the displays' work areas.
// (electron-window-state does this too, but is unmaintained and reads Electron's screen itself.)
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** The normal (not maximised, not full-screen) bounds. */
  bounds: Rect;
  isMaximized: boolean;
}

/** What BrowserWindow's options get: a position only when the saved one is still on screen. */
export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  isMaximized: boolean;
}

export const DEFAULT_SIZE = { width: 1100, height: 760 };
export const MIN_SIZE = { width: 800, height: 600 };
/** How much of the title bar must lie on a display for the window to count as reachable, in px. */
const MIN_VISIBLE_PX = 100;
const TITLE_BAR_PX = 32;

const pixels = z.number().int().min(-100_000).max(100_000);
const stateSchema = z.object({
  bounds: z.object({ x: pixels, y: pixels, width: pixels.positive(), height: pixels.positive() }),
  isMaximized: z.boolean(),
});

/** Parse the file's text; throws Error naming what is wrong. */
export function parseWindowState(text: string): WindowState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('window-state.json is not JSON');
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) throw new Error(`window-state.json: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

function titleBarReachable(bounds: Rect, area: Rect): boolean {
  const overlapX = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  const titleInside = bounds.y >= area.y && bounds.y + TITLE_BAR_PX <= area.y + area.height;
  return titleInside && overlapX >= Math.min(MIN_VISIBLE_PX, bounds.width);
}

/**
 * Place the window: the saved bounds where their title bar is still reachable on some display
 * (size capped to that display), else the saved or default size centred on the primary display.
 * workAreas lists the displays' work areas, the primary one first.
 */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  const primary = workAreas[0];
  const wanted = saved?.bounds ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  const isMaximized = saved?.isMaximized ?? false;
  const fit = (area: Rect | undefined) => ({
    width: Math.max(MIN_SIZE.width, Math.min(wanted.width, area?.width ?? wanted.width)),
    height: Math.max(MIN_SIZE.height, Math.min(wanted.height, area?.height ?? wanted.height)),
  });
  if (saved) {
    const home = workAreas.find((area) => titleBarReachable(saved.bounds, area));
    if (home) return { x: saved.bounds.x, y: saved.bounds.y, ...fit(home), isMaximized };
  }
  const size = fit(primary);
  if (!primary) return { ...size, isMaximized };
  return {
    x: primary.x + Math.round((primary.width - size.width) / 2),
    y: primary.y + Math.round((primary.height - size.height) / 2),
    ...size,
    isMaximized,
  };
}

export interface WindowStateFileOptions {
  path: string;
  /** Where a damaged file is reported; default stderr. */
  warn?: (message: string) => void;
}

/** The file itself: load() never throws (a missing or damaged file gives null), save() is atomic. */
export class WindowStateFile {
  private readonly warn: (message: string) => void;

  constructor(private readonly options: WindowStateFileOptions) {
    this.warn = options.warn ?? ((message) => process.stderr.write(`resolute: ${message}\n`));
  }

  load(): WindowState | null {
    let text: string;
    try {
      text = readFileSync(this.options.path, 'utf8');
    } catch {
      return null;
    }
    try {
      return parseWindowState(text);
    } catch (error) {
      this.warn(`${(error as Error).message}; the window opens at its default size`);
      return null;
    }
  }

  save(state: WindowState): void {
    const temporary = `${this.options.path}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
      renameSync(temporary, this.options.path);
    } catch (error) {
      this.warn(`could not save the window position (${(error as Error).message})`);
    }
  }
}

/** The part of BrowserWindow that saving needs. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  on(event: 'close', listener: () => void): unknown;
}

/** Save the window's normal bounds and maximised state when it closes (or is hidden to the tray, left-alone.ts). */
export function rememberOnClose(win: TrackedWindow, file: Pick<WindowStateFile, 'save'>): void {
  win.on('close', () => file.save({ bounds: win.getNormalBounds(), isMaximized: win.isMaximized() }));
}
