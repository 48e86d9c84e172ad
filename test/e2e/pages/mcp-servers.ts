// Page object for one MCP server's row in Settings → MCP servers (docs/mcp.md): its status, next
// attempt and Retry now, its log (Show log, Refresh, where the file is), its tools with the "run
// without asking" switches, and the read-only catalog of resources and prompts. Works in both hosts.
import type { Locator, Page } from '@playwright/test';

export class McpServerRow {
  readonly root: Locator;
  readonly status: Locator;
  readonly nextAttempt: Locator;
  readonly retryNow: Locator;
  readonly log: Locator;
  readonly logText: Locator;
  readonly logWhere: Locator;
  readonly logRefresh: Locator;
  readonly tools: Locator;
  readonly catalog: Locator;
  readonly prompts: Locator;
  readonly resources: Locator;
  readonly remove: Locator;
  readonly removeQuestion: Locator;
  readonly removeYes: Locator;
  readonly removeKeep: Locator;
  readonly toolDescriptions: Locator;

  constructor(page: Page, name: string) {
    this.root = page.locator(`[data-testid="mcp-row"][data-server="${name}"]`);
    this.status = this.root.getByTestId('mcp-status');
    this.nextAttempt = this.root.getByTestId('mcp-next-attempt');
    this.retryNow = this.root.getByTestId('mcp-retry-now');
    this.log = this.root.getByTestId('mcp-log');
    this.logText = this.root.getByTestId('mcp-log-text');
    this.logWhere = this.root.getByTestId('mcp-log-where');
    this.logRefresh = this.root.getByTestId('mcp-log-refresh');
    this.tools = this.root.getByTestId('mcp-tools');
    this.catalog = this.root.getByTestId('mcp-catalog');
    this.prompts = this.root.getByTestId('mcp-prompts');
    this.resources = this.root.getByTestId('mcp-resources');
    this.remove = this.root.getByTestId('mcp-remove');
    this.removeQuestion = this.root.getByTestId('mcp-remove-question');
    this.removeYes = this.root.getByTestId('mcp-remove-yes');
    this.removeKeep = this.root.getByTestId('mcp-remove-keep');
    this.toolDescriptions = this.root.getByTestId('mcp-tool-description');
  }

  async showLog(): Promise<void> {
    await this.log.locator('summary').click();
  }

  async showTools(): Promise<void> {
    await this.tools.locator('summary').click();
  }

  async showCatalog(): Promise<void> {
    await this.catalog.locator('summary').click();
  }

  /** The "run without asking" switch of one of the server's tools. */
  allowWithoutAsking(tool: string): Locator {
    return this.tools.locator('li', { hasText: tool }).getByTestId('mcp-tool-allow');
  }
}
