// Page object for the window's frame around every view: the navigation, New chat, the sidebar's
// sessions and badges, the notices, the Simulator badge, the connection line and the command
// palette. Specs make one with `new AppShell(page)`; works in both hosts.
import type { Locator, Page } from '@playwright/test';

export class AppShell {
  readonly navChat: Locator;
  readonly navSettings: Locator;
  readonly navHistory: Locator;
  readonly newChat: Locator;
  readonly sidebar: Locator;
  readonly sidebarToggle: Locator;
  /** The sidebar's rows, one per chat. */
  readonly sessions: Locator;
  readonly erroredBadge: Locator;
  readonly activity: Locator;
  readonly notices: Locator;
  readonly simulatorBadge: Locator;
  /** The fault script the Simulator badge names, and its ×. */
  readonly simulatorScript: Locator;
  readonly simulatorScriptClear: Locator;
  readonly connectionStatus: Locator;
  readonly commandPalette: Locator;
  /** Settings → Keyboard shortcuts' list. */
  readonly shortcutList: Locator;

  constructor(readonly page: Page) {
    this.navChat = page.getByTestId('nav-chat');
    this.navSettings = page.getByTestId('nav-settings');
    this.navHistory = page.getByTestId('nav-history');
    this.newChat = page.getByTestId('new-chat');
    this.sidebar = page.getByTestId('sidebar');
    this.sidebarToggle = page.getByTestId('sidebar-toggle');
    this.sessions = page.getByTestId('sidebar-session');
    this.erroredBadge = page.getByTestId('sidebar-errored-badge');
    this.activity = page.getByTestId('sidebar-activity');
    this.notices = page.getByTestId('notice');
    this.simulatorBadge = page.getByTestId('simulator-badge');
    this.simulatorScript = page.getByTestId('simulator-badge-script');
    this.simulatorScriptClear = page.getByTestId('simulator-script-clear');
    this.connectionStatus = page.getByTestId('connection-status');
    this.commandPalette = page.getByTestId('command-palette');
    this.shortcutList = page.getByTestId('shortcut-list');
  }
}
