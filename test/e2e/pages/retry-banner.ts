// Page object for the retry banner: its text, Cancel, Retry now and, offline, Continue on a local model. Works in both hosts.
import type { Locator, Page } from '@playwright/test';

export class RetryBanner {
  readonly root: Locator;
  readonly text: Locator;
  readonly cancel: Locator;
  readonly retryNow: Locator;
  /** Cancel, by test id (for the screenshots in every language). */
  readonly cancelById: Locator;
  /** Offline: "Continue on <local model>", when the fallback list has one. */
  readonly continueLocal: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('retry-banner');
    this.text = page.getByTestId('retry-banner-text');
    this.cancel = page.getByRole('button', { name: 'Cancel retry' });
    this.retryNow = page.getByTestId('retry-now');
    this.cancelById = page.getByTestId('retry-cancel');
    this.continueLocal = page.getByTestId('retry-continue-local');
  }

  /**
   * Keep every text the banner shows from now on, in the page: a wait of 0.7 s can pass between two
   * polls of an expect on a busy machine. Returns a reader of what was kept, in order.
   */
  async recordTexts(): Promise<() => Promise<string[]>> {
    // A string, run in the page: the tests' type-check knows Node, not the DOM.
    await this.page.evaluate(`(() => {
      const seen = [];
      window.resoluteBannerTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="retry-banner"]')?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
    return () => this.page.evaluate<string[]>('window.resoluteBannerTexts');
  }
}
