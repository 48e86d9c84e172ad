// Page object for the chat screen: the composer, the transcript, Stop. Works in both hosts.
import { expect, type Locator, type Page } from '@playwright/test';

export class ChatPage {
  readonly input: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly assistantMessages: Locator;
  readonly userMessages: Locator;
  readonly erroredCards: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId('chat-input');
    this.send = page.getByTestId('send-button');
    this.stop = page.getByTestId('stop-button');
    this.assistantMessages = page.getByTestId('message-assistant');
    this.userMessages = page.getByTestId('message-user');
    this.erroredCards = page.getByTestId('errored-turn-card');
  }

  async prompt(text: string): Promise<void> {
    await this.input.fill(text);
    await this.send.click();
    await expect(this.userMessages.last()).toContainText(text);
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
