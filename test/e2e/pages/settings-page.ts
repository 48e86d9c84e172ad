// Page object for the settings pane: navigation, the auto-retry switch, the provider, its keys, language.
import { expect, type Locator, type Page } from '@playwright/test';

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

  /** Point the app at an OpenAI-compatible server (the simulator's /v1 URL in tests). */
  async useOpenAiCompatible(baseUrl: string): Promise<void> {
    await this.page.getByTestId('settings-provider').selectOption('openai-compatible');
    const field = this.page.getByTestId('settings-base-url');
    await field.fill(baseUrl);
    await field.press('Enter');
    await expect(this.page.getByTestId('settings-saved')).toContainText('Saved');
  }

  async setLanguage(language: 'en' | 'ja' | 'ko' | 'system'): Promise<void> {
    await this.page.getByTestId('settings-language').selectOption(language);
  }
}
