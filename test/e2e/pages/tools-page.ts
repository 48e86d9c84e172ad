// Page object for the agent's tools in the chat: tool cards, the approval card, the Continue bar
// and the workspace picker (its path, field, Apply, error and form). Works in both hosts.
import type { Locator, Page } from '@playwright/test';

export class ToolsPage {
  readonly cards: Locator;
  readonly approval: Locator;
  readonly allowOnce: Locator;
  readonly allowSession: Locator;
  readonly deny: Locator;
  readonly continueButton: Locator;
  readonly workspaceButton: Locator;
  readonly workspacePath: Locator;
  readonly workspaceInput: Locator;
  readonly workspaceApply: Locator;
  readonly workspaceError: Locator;
  readonly workspaceForm: Locator;
  /** The approval card's command or diff, its "N more … not shown" note and its Show all. */
  readonly approvalCommand: Locator;
  readonly approvalDiff: Locator;
  readonly approvalCut: Locator;
  readonly approvalShowAll: Locator;
  /** The diff's lines, and the note that a replace is shown as a whole. */
  readonly approvalDiffLines: Locator;
  readonly approvalWhole: Locator;

  constructor(readonly page: Page) {
    this.cards = page.getByTestId('tool-card');
    this.approval = page.getByTestId('approval-card');
    this.allowOnce = page.getByTestId('approval-allow-once');
    this.allowSession = page.getByTestId('approval-allow-session');
    this.deny = page.getByTestId('approval-deny');
    this.continueButton = page.getByTestId('continue-button');
    this.workspaceButton = page.getByTestId('workspace-button');
    this.workspacePath = page.getByTestId('workspace-path');
    this.workspaceInput = page.getByTestId('workspace-input');
    this.workspaceApply = page.getByTestId('workspace-apply');
    this.workspaceError = page.getByTestId('workspace-error');
    this.workspaceForm = page.getByTestId('workspace-form');
    this.approvalCommand = page.getByTestId('approval-command');
    this.approvalDiff = page.getByTestId('approval-diff');
    this.approvalCut = page.getByTestId('approval-cut');
    this.approvalShowAll = page.getByTestId('approval-show-all');
    this.approvalDiffLines = this.approvalDiff.locator('.diff-line');
    this.approvalWhole = page.getByTestId('approval-whole');
  }

  card(tool: string): Locator {
    return this.page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);
  }

  /** A tool's card while its call still runs. */
  runningCard(tool: string): Locator {
    return this.page.locator(`[data-testid="tool-card"][data-tool="${tool}"][data-status="running"]`);
  }

  /** The approval card inside one part of the page (a transcript row). */
  approvalIn(scope: Locator): Locator {
    return scope.getByTestId('approval-card');
  }

  /** A bash card's command line. */
  command(card: Locator): Locator {
    return card.locator('.tool-command');
  }

  /** A card's output, status line (exit code, timeout) and image. */
  output(card: Locator): Locator {
    return card.getByTestId('tool-card-output');
  }

  status(card: Locator): Locator {
    return card.getByTestId('tool-card-status');
  }

  image(card: Locator): Locator {
    return card.getByTestId('tool-card-image');
  }

  /** Open a card (its <summary>) to see arguments and output. */
  async open(card: Locator): Promise<void> {
    await card.locator('summary').click();
  }
}
