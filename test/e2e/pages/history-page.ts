// Page object for the history view: the sessions table, the errored-turns filter, a session's detail.
import type { Locator, Page } from '@playwright/test';

export class HistoryPage {
  readonly sessions: Locator;
  readonly erroredOnly: Locator;
  readonly erroredTurns: Locator;
  readonly timeline: Locator;

  constructor(readonly page: Page) {
    this.sessions = page.getByTestId('history-session-row');
    this.erroredOnly = page.getByTestId('history-errored-only');
    this.erroredTurns = page.getByTestId('history-errored-turn');
    this.timeline = page.getByTestId('retry-timeline');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-history').click();
  }
}
