// The main window's BrowserWindow options: where it opens (window-state.ts), its minimum size, the
// icon on Linux and Windows (macOS takes the bundle's), hidden until ready-to-show, and the
// hardened webPreferences from security.ts. Pure, so the options are unit-tested.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import { MIN_SIZE, type WindowPlacement } from './window-state';

export interface MainWindowInputs {
  placement: WindowPlacement;
  webPreferences: WebPreferences;
  /** A PNG of the app icon; ignored on macOS, where the .app bundle's icon is used. */
  iconPath: string;
  platform: NodeJS.Platform;
}

export function mainWindowOptions(inputs: MainWindowInputs): BrowserWindowConstructorOptions {
  const { isMaximized: _isMaximized, ...bounds } = inputs.placement;
  return {
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    // Shown on ready-to-show, so the person never sees an empty frame.
    show: false,
    title: 'Resolute',
    ...(inputs.platform === 'darwin' ? {} : { icon: inputs.iconPath }),
    webPreferences: inputs.webPreferences,
  };
}
