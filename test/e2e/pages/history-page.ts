// Page object for the history view: the sessions table, the search, the errored-turns filter, the
// "What failures cost" panel, a session's detail (its counts, messages, cards, other versions) and
// its Markdown export.
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
  /** Where the export went. */
  readonly exportStatus: Locator;
  /** The detail's Back to the list. */
  readonly back: Locator;
  /** The highlighted words of the search hits, and each hit's link. */
  readonly searchHitMarks: Locator;
  readonly searchHitLinks: Locator;
  /** The cost panel's category lines. */
  readonly costCategories: Locator;
  /** Each session row's token usage. */
  readonly sessionUsage: Locator;
  /** The detail's parts: "N of M turns shown", its messages and errored cards, the session's total. */
  readonly detailCounts: Locator;
  readonly detailUserMessages: Locator;
  readonly detailErroredCards: Locator;
  readonly detailSessionCost: Locator;
  readonly detailThinkingToggle: Locator;
  readonly detailBranchPrevious: Locator;
  /** The failed chains of the message's other versions, listed under the detail. */
  readonly detailOtherVersions: Locator;
  readonly detailOtherVersionCards: Locator;

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
    this.exportStatus = page.getByTestId('export-status');
    this.back = page.getByTestId('history-back');
    this.searchHitMarks = this.searchHits.locator('mark');
    this.searchHitLinks = this.searchHits.getByRole('link');
    this.costCategories = page.getByTestId('failure-cost-category');
    this.sessionUsage = page.getByTestId('history-session-usage');
    this.detailCounts = this.detail.getByTestId('history-detail-counts');
    this.detailUserMessages = this.detail.getByTestId('message-user');
    this.detailErroredCards = this.detail.getByTestId('errored-turn-card');
    this.detailSessionCost = this.detail.getByTestId('session-cost');
    this.detailThinkingToggle = this.detail.getByTestId('thinking-toggle');
    this.detailBranchPrevious = this.detail.getByTestId('branch-previous');
    this.detailOtherVersions = this.detail.getByTestId('history-other-versions');
    this.detailOtherVersionCards = this.detailOtherVersions.getByTestId('errored-turn-card');
  }

  /** The link that opens the session with this title. */
  sessionLink(title: string): Locator {
    return this.sessions.getByRole('link', { name: title });
  }

  /** The link of the session row at `index` (the newest first). */
  sessionRowLink(index = 0): Locator {
    return this.sessions.nth(index).getByRole('link');
  }

  /** The errored badge of the session row at `index`. */
  sessionErroredBadge(index = 0): Locator {
    return this.sessions.nth(index).getByTestId('history-errored-badge');
  }

  /** One errored turn's retry timeline, its entries and its outcome (the first turn unless `index`). */
  turnTimeline(index = 0): Locator {
    return this.erroredTurns.nth(index).getByTestId('retry-timeline');
  }

  turnTimelineEntries(index = 0): Locator {
    return this.erroredTurns.nth(index).getByTestId('timeline-entry');
  }

  turnOutcome(index = 0): Locator {
    return this.erroredTurns.nth(index).getByTestId('timeline-outcome');
  }

  /** An image in the detail, by its accessible name. */
  detailImage(name: string): Locator {
    return this.detail.getByRole('img', { name });
  }

  async openCostPanel(): Promise<void> {
    await this.costPanel.locator('summary').click();
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-history').click();
  }
}
