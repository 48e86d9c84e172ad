// Page object for the history view: the sessions table, the search, the errored-turns filter, the
// "What failures cost" panel, a session's detail and its Markdown export.
import type { Locator, Page } from '@playwright/test';

export class HistoryPage {
  readonly sessions: Locator;
  /** Each session row's link that opens its detail. */
  readonly sessionLinks: Locator;
  readonly erroredOnly: Locator;
  readonly erroredTurns: Locator;
  readonly timeline: Locator;
  readonly search: Locator;
  readonly searchHits: Locator;
  readonly costPanel: Locator;
  readonly costTotal: Locator;
  readonly detail: Locator;
  readonly detailTitle: Locator;
  readonly exportMarkdown: Locator;

  constructor(readonly page: Page) {
    this.sessions = page.getByTestId('history-session-row');
    this.sessionLinks = page.getByTestId('history-open');
    this.erroredOnly = page.getByTestId('history-errored-only');
    this.erroredTurns = page.getByTestId('history-errored-turn');
    this.timeline = page.getByTestId('retry-timeline');
    this.search = page.getByTestId('history-search');
    this.searchHits = page.getByTestId('history-search-hit');
    this.costPanel = page.getByTestId('failure-cost-panel');
    this.costTotal = page.getByTestId('failure-cost-total');
    this.detail = page.getByTestId('history-detail');
    this.detailTitle = page.getByTestId('history-detail-title');
    this.exportMarkdown = page.getByTestId('history-export-markdown');
  }

  /** The link that opens the session with this title. */
  sessionLink(title: string): Locator {
    return this.sessions.getByRole('link', { name: title });
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-history').click();
  }
}
