// Page object for the chat screen: the composer and its attachments, the transcript, Stop, the
// header (title, model, thinking level, context meter) and the notes a chain leaves. Works in both hosts.
import { expect, type Locator, type Page } from '@playwright/test';
import { ErroredCard } from './errored-card';

export class ChatPage {
  readonly input: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly assistantMessages: Locator;
  readonly userMessages: Locator;
  readonly erroredCards: Locator;
  readonly transcript: Locator;
  readonly title: Locator;
  readonly modelPicker: Locator;
  readonly thinkingLevel: Locator;
  readonly recoveredNote: Locator;
  readonly pacingNotice: Locator;
  readonly attachInput: Locator;
  readonly attachmentChips: Locator;
  readonly attachmentRefusal: Locator;
  readonly pendingAttachments: Locator;
  readonly instructionsChip: Locator;
  readonly instructionsPanel: Locator;
  readonly contextDetails: Locator;
  readonly contextBreakdown: Locator;
  readonly sessionCost: Locator;
  /** "While you were away": the card, and its Dismiss. */
  readonly awaySummary: Locator;
  readonly awayDismiss: Locator;
  /** The interrupted-turn card a restart offers, with its Retry now and Discard. */
  readonly interruptedCard: Locator;
  readonly interruptedRetry: Locator;
  readonly interruptedDiscard: Locator;
  /** Why Enter sent nothing: the chat's retry waits. */
  readonly sendHeld: Locator;
  /** The spending cap's question (docs/tools.md, "The spending cap"), with Raise and Stop. */
  readonly spendingCap: Locator;
  readonly spendingCapRaise: Locator;
  readonly spendingCapStop: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId('chat-input');
    this.send = page.getByTestId('send-button');
    this.stop = page.getByTestId('stop-button');
    this.assistantMessages = page.getByTestId('message-assistant');
    this.userMessages = page.getByTestId('message-user');
    this.erroredCards = page.getByTestId('errored-turn-card');
    this.transcript = page.getByTestId('transcript');
    this.title = page.getByTestId('chat-title');
    this.modelPicker = page.getByTestId('model-picker');
    this.thinkingLevel = page.getByTestId('thinking-level');
    this.recoveredNote = page.getByTestId('recovered-note');
    this.pacingNotice = page.getByTestId('pacing-notice');
    this.attachInput = page.getByTestId('attach-input');
    this.attachmentChips = page.getByTestId('attachment-chip');
    this.attachmentRefusal = page.getByTestId('attachment-refusal');
    this.pendingAttachments = page.getByTestId('pending-attachments');
    this.instructionsChip = page.getByTestId('instructions-chip');
    this.instructionsPanel = page.getByTestId('instructions-panel');
    this.contextDetails = page.getByTestId('context-details');
    this.contextBreakdown = page.getByTestId('context-breakdown');
    this.sessionCost = page.getByTestId('session-cost');
    this.awaySummary = page.getByTestId('away-summary');
    this.awayDismiss = page.getByTestId('away-dismiss');
    this.interruptedCard = page.getByTestId('interrupted-card');
    this.interruptedRetry = page.getByTestId('interrupted-retry');
    this.interruptedDiscard = page.getByTestId('interrupted-discard');
    this.sendHeld = page.getByTestId('send-held');
    this.spendingCap = page.getByTestId('spending-cap');
    this.spendingCapRaise = page.getByTestId('spending-cap-raise');
    this.spendingCapStop = page.getByTestId('spending-cap-stop');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-chat').click();
  }

  async prompt(text: string): Promise<void> {
    await this.input.fill(text);
    await this.send.click();
    await expect(this.userMessages.last()).toContainText(text);
  }

  /** An errored chain card: the last one unless an index is given. */
  erroredCard(index?: number): ErroredCard {
    return new ErroredCard(index === undefined ? this.erroredCards.last() : this.erroredCards.nth(index));
  }

  /** One line of the away summary: work, failures, recovered, failed, approvals, approvals-waiting, cost, scheduled, files. */
  awayLine(name: string): Locator {
    return this.awaySummary.getByTestId(`away-${name}`);
  }

  lastAssistant(): Locator {
    return this.assistantMessages.last();
  }

  /** The turn is over: its reply is stored (it offers Regenerate) and nothing streams or waits (no Stop). */
  async waitForTurnEnd(): Promise<void> {
    await expect(this.lastAssistant().getByTestId('regenerate')).toBeVisible();
    await expect(this.stop).toBeHidden();
  }
}
