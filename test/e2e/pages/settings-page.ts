// Page object for the settings pane: navigation and its index, the auto-retry switch, the provider,
// its model, URL and keys, Test connection, a local server's presets and fields, the fallback models,
// the Simulator's fault script, the decision table, the MCP section with its form and import, language. A server's row is McpServerRow (mcp-servers.ts).
import { expect, type Locator, type Page } from '@playwright/test';

export class SettingsPage {
  readonly autoRetry: Locator;
  /** The pane that scrolls, holding one <section> per index entry. */
  readonly scroller: Locator;
  /** "Saved" after a field's change is stored. */
  readonly saved: Locator;
  readonly provider: Locator;
  readonly model: Locator;
  readonly baseUrl: Locator;
  readonly testConnection: Locator;
  readonly testConnectionResult: Locator;
  /** The result's way to the key field, when the provider has no key. */
  readonly testConnectionAddKey: Locator;
  /** What the chosen model is: context, price, images, thinking. */
  readonly modelFacts: Locator;
  /** The decision table's heading, by its English name. */
  readonly decisionTableHeading: Locator;
  /** The settings index's entries, and the sections of the pane in order. */
  readonly indexLinks: Locator;
  readonly sections: Locator;
  readonly maxRetries: Locator;
  /** "Schedule long waits" (docs/retry-policy.md). */
  readonly scheduleLongWaits: Locator;
  readonly maxRetriesError: Locator;
  readonly simulatorScript: Locator;
  readonly decisionTable: Locator;
  readonly mcpSection: Locator;
  readonly mcpAdd: Locator;
  readonly mcpFormName: Locator;
  readonly mcpFormEntry: Locator;
  readonly mcpFormSave: Locator;
  readonly mcpFormError: Locator;
  readonly mcpImportFile: Locator;
  readonly mcpImportResult: Locator;
  /** The form asking for the values of a VS Code config's `inputs`. */
  readonly mcpImportInputs: Locator;
  readonly mcpImportInputsSave: Locator;
  readonly baseUrlError: Locator;
  /** The models the server named, under Test connection, and the model field's suggestions. */
  readonly testConnectionModels: Locator;
  readonly modelSuggestions: Locator;
  /** A local server's output cap and first-token wait. */
  readonly localMaxTokens: Locator;
  readonly localFirstTokenWait: Locator;
  /** The first-token wait's hint for an empty field (by its English words). */
  readonly localFirstTokenWaitHint: Locator;
  /** The fallback models: the editor, its Add, its rows and its error line. */
  readonly fallbackEditor: Locator;
  readonly fallbackAdd: Locator;
  readonly fallbackRows: Locator;
  readonly fallbackError: Locator;

  constructor(readonly page: Page) {
    this.autoRetry = page.getByTestId('settings-auto-retry');
    this.scroller = page.getByTestId('settings-scroll');
    this.saved = page.getByTestId('settings-saved');
    this.provider = page.getByTestId('settings-provider');
    this.model = page.getByTestId('settings-model');
    this.baseUrl = page.getByTestId('settings-base-url');
    this.testConnection = page.getByTestId('test-connection');
    this.testConnectionResult = page.getByTestId('test-connection-result');
    this.testConnectionAddKey = this.testConnectionResult.getByTestId('test-connection-add-key');
    this.modelFacts = page.getByTestId('model-facts');
    this.decisionTableHeading = page.getByRole('heading', { name: 'Decision table' });
    this.indexLinks = page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link');
    this.sections = this.scroller.locator(':scope > section');
    this.maxRetries = page.getByTestId('settings-max-retries');
    this.scheduleLongWaits = page.getByTestId('settings-schedule-long-waits');
    this.maxRetriesError = page.getByTestId('settings-max-retries-error');
    this.simulatorScript = page.getByTestId('settings-simulator-script');
    this.decisionTable = page.getByTestId('decision-table');
    this.mcpSection = page.getByTestId('mcp-section');
    this.mcpAdd = page.getByTestId('mcp-add');
    this.mcpFormName = page.getByTestId('mcp-form-name');
    this.mcpFormEntry = page.getByTestId('mcp-form-entry');
    this.mcpFormSave = page.getByTestId('mcp-form-save');
    this.mcpFormError = page.getByTestId('mcp-form-error');
    this.mcpImportFile = page.getByTestId('mcp-import-file');
    this.mcpImportResult = page.getByTestId('mcp-import-result');
    this.mcpImportInputs = page.getByTestId('mcp-import-inputs');
    this.mcpImportInputsSave = page.getByTestId('mcp-import-inputs-save');
    this.baseUrlError = page.getByTestId('settings-base-url-error');
    this.testConnectionModels = page.getByTestId('test-connection-models');
    this.modelSuggestions = page.locator('datalist option');
    this.localMaxTokens = page.getByTestId('local-max-tokens');
    this.localFirstTokenWait = page.getByTestId('local-first-token-wait');
    this.localFirstTokenWaitHint = page.getByText('Empty: 10 minutes.');
    this.fallbackEditor = page.getByTestId('fallback-editor');
    this.fallbackAdd = this.fallbackEditor.getByTestId('fallback-add');
    this.fallbackRows = this.fallbackEditor.getByTestId('fallback-row');
    this.fallbackError = this.fallbackEditor.getByTestId('fallback-error');
  }

  /** The model field of the fallback row at `index`, and its drag handle. */
  fallbackModel(index: number): Locator {
    return this.fallbackRows.nth(index).getByTestId('fallback-model');
  }

  fallbackHandle(index: number): Locator {
    return this.fallbackRows.nth(index).getByTestId('fallback-handle');
  }

  /** The options of the model field's own list (read from its `list` attribute). */
  async modelListOptions(): Promise<Locator> {
    return this.page.locator(`datalist#${await this.model.getAttribute('list')} option`);
  }

  /** The decision table's row for an error category, and one of its cells. */
  decisionRow(category: string): Locator {
    return this.page.getByTestId(`decision-row-${category}`);
  }

  decisionCell(category: string, column: number): Locator {
    return this.decisionRow(category).locator('td').nth(column);
  }

  /** A local server's preset button: ollama, llama-cpp, … */
  preset(name: string): Locator {
    return this.page.getByTestId(`preset-${name}`);
  }

  /** One entry of the settings index, and the section heading it moves to. */
  indexLink(name: string): Locator {
    return this.page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name });
  }

  sectionHeading(name: string): Locator {
    return this.page.getByRole('heading', { name, level: 2 });
  }

  /** The heading of a provider's keys, where Check API key moves the focus. */
  providerKeysHeading(provider: string): Locator {
    return this.providerKeys(provider).getByRole('heading');
  }

  /** A provider's key field. */
  keyInput(provider: string): Locator {
    return this.page.getByTestId(`api-key-input-${provider}`);
  }

  /** One server's row in Settings → MCP. */
  mcpRow(name: string): Locator {
    return this.page.locator(`[data-testid="mcp-row"][data-server="${name}"]`);
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-settings').click();
  }

  /** Open Settings scrolled to the MCP servers section, and return the section. */
  async openMcp(): Promise<Locator> {
    await this.open();
    await this.mcpSection.scrollIntoViewIfNeeded();
    return this.mcpSection;
  }

  /** One provider's keys: the list and its add field. */
  providerKeys(provider: string): Locator {
    return this.page.getByTestId(`provider-${provider}`);
  }

  async addKey(provider: string, key: string): Promise<void> {
    await this.keyInput(provider).fill(key);
    await this.page.getByTestId(`api-key-add-${provider}`).click();
  }

  /** Point the app at an OpenAI-compatible server (the simulator's /v1 URL in tests). */
  async useOpenAiCompatible(baseUrl: string): Promise<void> {
    await this.provider.selectOption('openai-compatible');
    await this.baseUrl.fill(baseUrl);
    await this.baseUrl.press('Enter');
    await expect(this.saved).toContainText('Saved');
  }

  async setLanguage(language: 'en' | 'ja' | 'ko' | 'system'): Promise<void> {
    await this.page.getByTestId('settings-language').selectOption(language);
  }
}
