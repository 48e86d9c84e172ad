// Page object for one errored chain card (the chat's errored-turn-card, or a history detail's
// errored turn): its buttons (Retry, Resend and its Undo those changes first, Continue, Larger
// model, Retry at), its decision,
// category, message and scheduled-retry lines, and its status and outcome. Specs get one from ChatPage.erroredCard().
import { expect, type Locator } from '@playwright/test';

export class ErroredCard {
  readonly retry: Locator;
  readonly resend: Locator;
  /** Resend's "Undo those changes first" box, when the failed run changed files still in place. */
  readonly undoFirst: Locator;
  /** The question for a file changed since, when that undo meets one. */
  readonly undoQuestion: Locator;
  readonly continueButton: Locator;
  readonly largerModel: Locator;
  readonly retryAt: Locator;
  readonly decision: Locator;
  readonly category: Locator;
  readonly message: Locator;
  readonly explain: Locator;
  /** The disclosure that shows the provider's own message, by its English words. */
  readonly providerDetails: Locator;
  readonly scheduled: Locator;
  readonly title: Locator;
  /** The words that arrived before the error, and the "Cut off here" mark after them. */
  readonly partialReply: Locator;
  readonly partialCut: Locator;
  /** What the chain's attempts used and cost. */
  readonly failureCost: Locator;
  /** The red badge of a failure (none on a discarded turn). */
  readonly errorBadge: Locator;
  /** Check API key, on an authentication failure. */
  readonly checkApiKey: Locator;
  /** Continue on another model: the button and the models it offers. */
  readonly continueOn: Locator;
  readonly continueOnOptions: Locator;

  constructor(readonly root: Locator) {
    this.retry = root.getByTestId('card-retry');
    this.resend = root.getByTestId('card-resend');
    this.undoFirst = root.getByTestId('card-undo-first');
    this.undoQuestion = root.getByTestId('file-conflict');
    this.continueButton = root.getByTestId('card-continue');
    this.largerModel = root.getByTestId('card-larger-model');
    this.retryAt = root.getByTestId('card-retry-at');
    this.decision = root.getByTestId('errored-decision');
    this.category = root.getByTestId('errored-category');
    this.message = root.getByTestId('errored-message');
    this.explain = root.getByTestId('errored-explain');
    this.providerDetails = root.getByText('Details from the provider');
    this.scheduled = root.getByTestId('errored-scheduled');
    this.title = root.locator('.errored-title');
    this.partialReply = root.getByTestId('partial-reply');
    this.partialCut = root.getByTestId('partial-cut');
    this.failureCost = root.getByTestId('failure-cost');
    this.errorBadge = root.locator('.badge-error');
    this.checkApiKey = root.getByTestId('check-api-key');
    this.continueOn = root.getByTestId('card-continue-on');
    this.continueOnOptions = root.getByTestId('continue-on-option');
  }

  /** Continue on another model's option for one model. */
  continueOnOption(model: string): Locator {
    return this.root.locator(`[data-testid="continue-on-option"][data-model="${model}"]`);
  }

  /** The card's data-status: retrying, failed, … */
  async expectStatus(status: string): Promise<void> {
    await expect(this.root).toHaveAttribute('data-status', status);
  }

  /** How the chain ended (data-outcome): cancelled, exhausted, interrupted, … */
  async expectOutcome(outcome: string): Promise<void> {
    await expect(this.root).toHaveAttribute('data-outcome', outcome);
  }
}
