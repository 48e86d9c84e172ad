// Page object for the window's frame around every view: the navigation and skip link, New chat,
// the sidebar's sessions (rename, delete's confirmation) and badges, the notices, the Simulator
// badge, the connection line and the command palette. Specs make one with `new AppShell(page)`; works in both hosts.
import type { Locator, Page } from '@playwright/test';

export class AppShell {
  readonly navChat: Locator;
  readonly navSettings: Locator;
  readonly navHistory: Locator;
  readonly newChat: Locator;
  readonly sidebar: Locator;
  /** The sidebar's <nav>, for its screenshots. */
  readonly sidebarNav: Locator;
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
  /** The palette's search field and the commands it lists. */
  readonly paletteSearch: Locator;
  readonly paletteOptions: Locator;
  readonly skipLink: Locator;
  /** The view's main region, where the skip link moves the focus. */
  readonly main: Locator;
  /** The view's scrolling pane. */
  readonly paneScroll: Locator;
  /** The page's <html>, whose lang is the UI language. */
  readonly document: Locator;
  /** A sidebar row's rename field. */
  readonly renameInput: Locator;
  /** The confirmation a delete asks for, and its OK. */
  readonly confirmDialog: Locator;
  readonly confirmOk: Locator;
  /** What a page without the launch token shows instead of the app. */
  readonly tokenNeeded: Locator;

  constructor(readonly page: Page) {
    this.navChat = page.getByTestId('nav-chat');
    this.navSettings = page.getByTestId('nav-settings');
    this.navHistory = page.getByTestId('nav-history');
    this.newChat = page.getByTestId('new-chat');
    this.sidebar = page.getByTestId('sidebar');
    this.sidebarNav = page.locator('nav.sidebar');
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
    this.paletteSearch = this.commandPalette.getByRole('combobox');
    this.paletteOptions = this.commandPalette.getByRole('option');
    this.skipLink = page.getByTestId('skip-link');
    this.main = page.locator('main');
    this.paneScroll = page.locator('.pane-scroll');
    this.document = page.locator('html');
    this.renameInput = page.getByTestId('rename-input');
    this.confirmDialog = page.getByTestId('confirm-dialog');
    this.confirmOk = this.confirmDialog.getByTestId('confirm-ok');
    this.tokenNeeded = page.getByTestId('token-needed');
  }

  /** The sidebar's row of the chat with this title. */
  session(title: string): Locator {
    return this.sessions.filter({ hasText: title });
  }

  /** What a sidebar row says its chat is doing (Retrying in N s, …). */
  activityOf(session: Locator): Locator {
    return session.getByTestId('sidebar-activity');
  }
}
