// Page object for the retry banner: its text, Cancel and Retry now. Works in both hosts.
import type { Locator, Page } from '@playwright/test';

export class RetryBanner {
  readonly root: Locator;
  readonly text: Locator;
  readonly cancel: Locator;
  readonly retryNow: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('retry-banner');
    this.text = page.getByTestId('retry-banner-text');
    this.cancel = page.getByRole('button', { name: 'Cancel retry' });
    this.retryNow = page.getByTestId('retry-now');
  }
}
