// Page object for the settings pane: navigation, the auto-retry switch, provider keys, language.
import type { Locator, Page } from '@playwright/test';

export class SettingsPage {
  readonly autoRetry: Locator;

  constructor(readonly page: Page) {
    this.autoRetry = page.getByTestId('settings-auto-retry');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-settings').click();
  }

  async addKey(provider: string, key: string): Promise<void> {
    await this.page.getByTestId(`api-key-input-${provider}`).fill(key);
    await this.page.getByTestId(`api-key-add-${provider}`).click();
  }

  async setLanguage(language: 'en' | 'ja' | 'ko' | 'system'): Promise<void> {
    await this.page.getByTestId('settings-language').selectOption(language);
  }
}
