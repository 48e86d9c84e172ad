// Page object for the chat screen: the composer and its attachments, the transcript, Stop, the
// header (title, model, thinking level, context meter), the instructions panel, the prompt-wait
// notice and the notes a chain leaves; ChatMessage is one message's parts. Works in both hosts.
import { expect, type Locator, type Page } from '@playwright/test';
import { ErroredCard } from './errored-card';

/** One message in the chat or a history detail: its rendered Markdown, thinking block, buttons and version switcher. */
export class ChatMessage {
  readonly edit: Locator;
  readonly regenerate: Locator;
  /** The model that answered, when it is not the session's own. */
  readonly answeredBy: Locator;
  /** The reply's text, without its thinking block. */
  readonly text: Locator;
  /** The version switcher: "2 / 2", previous and next. */
  readonly branchVersions: Locator;
  readonly branchPrevious: Locator;
  readonly branchNext: Locator;
  /** Rendered Markdown: the first-level headings, the table's rows and header cells. */
  readonly headings: Locator;
  readonly tableRows: Locator;
  readonly tableHeaders: Locator;
  readonly codeBlock: Locator;
  readonly copyCode: Locator;
  /** The highlighted keywords of the code block. */
  readonly codeKeywords: Locator;
  /** Elements that raw HTML in a reply would have made live (images, scripts, bold, handlers). */
  readonly rawHtmlElements: Locator;
  readonly javascriptLinks: Locator;
  /** Markdown a person's own message would show rendered (a heading, bold). */
  readonly renderedMarkdown: Locator;
  /** The thinking block, its "Thought for N s" toggle and its text. */
  readonly thinking: Locator;
  readonly thinkingToggle: Locator;
  readonly thinkingText: Locator;
  /** The files and images sent with a person's message. */
  readonly sentAttachments: Locator;

  constructor(readonly root: Locator) {
    this.edit = root.getByTestId('edit-message');
    this.regenerate = root.getByTestId('regenerate');
    this.answeredBy = root.getByTestId('answered-by');
    this.text = root.locator('.bubble-text');
    this.branchVersions = root.getByTestId('branch-versions');
    this.branchPrevious = root.getByTestId('branch-previous');
    this.branchNext = root.getByTestId('branch-next');
    this.headings = root.locator('h1');
    this.tableRows = root.locator('table tr');
    this.tableHeaders = root.locator('th');
    this.codeBlock = root.getByTestId('code-block');
    this.copyCode = this.codeBlock.getByTestId('copy-code');
    this.codeKeywords = this.codeBlock.locator('.hljs-keyword');
    this.rawHtmlElements = root.locator('img, script, b, [onclick], [onerror]');
    this.javascriptLinks = root.locator('a[href^="javascript"]');
    this.renderedMarkdown = root.locator('h1, strong');
    this.thinking = root.getByTestId('thinking');
    this.thinkingToggle = root.getByTestId('thinking-toggle');
    this.thinkingText = root.getByTestId('thinking-text');
    this.sentAttachments = root.getByTestId('sent-attachment');
  }

  /** A link the message rendered, by its address. */
  link(href: string): Locator {
    return this.root.locator(`a[href="${href}"]`);
  }

  /** An image among the message's sent attachments, by its accessible name. */
  sentImage(name: string): Locator {
    return this.sentAttachments.getByRole('img', { name });
  }

  /** An image shown in the message, by its accessible name ("Image dot.png"). */
  image(name: string): Locator {
    return this.root.getByRole('img', { name });
  }
}

export class ChatPage {
  readonly input: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly assistantMessages: Locator;
  readonly userMessages: Locator;
  readonly erroredCards: Locator;
  /** Every errored card's Retry on the page. */
  readonly retryButtons: Locator;
  /** Every errored card's Retry at on the page. */
  readonly retryAtButtons: Locator;
  readonly transcript: Locator;
  readonly title: Locator;
  readonly modelPicker: Locator;
  readonly thinkingLevel: Locator;
  readonly recoveredNote: Locator;
  /** The recovered note's row for the attempt that succeeded, and any badge on it. */
  readonly recoveredSuccess: Locator;
  readonly recoveredSuccessBadges: Locator;
  /** The words a failed attempt streamed, as the recovered note's timeline keeps them. */
  readonly recoveredPartial: Locator;
  /** The note on a reply continued after an error cut it off. */
  readonly continuedNote: Locator;
  /** The header's provider name beside the model. */
  readonly provider: Locator;
  readonly pacingNotice: Locator;
  readonly attachInput: Locator;
  readonly attachmentChips: Locator;
  readonly attachmentRefusal: Locator;
  readonly pendingAttachments: Locator;
  /** The chips of the files waiting in the composer (not those of a sent message). */
  readonly pendingChips: Locator;
  /** The refusal's "Send without the images", for a model that reads text only. */
  readonly sendWithoutImages: Locator;
  /** Bold text anywhere in the transcript (an attached file's markup must not become it). */
  readonly transcriptBold: Locator;
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
  /** A message's edit box and its Send. */
  readonly editInput: Locator;
  readonly editSend: Locator;
  /** The transcript's rows (messages, cards, bars), in order. */
  readonly transcriptRows: Locator;
  /** The transcript's list items themselves (their aria-setsize and aria-posinset). */
  readonly transcriptItems: Locator;
  /** The reply while it streams. */
  readonly streamingReply: Locator;
  /** A paged transcript's "Show older turns", and "The start of this session" once all is loaded. */
  readonly loadOlder: Locator;
  readonly sessionStart: Locator;
  /** The row a fallback leaves: "Switched to … (usage limit on …)". */
  readonly modelSwitchRows: Locator;
  /** The header's Thinking control, found by its label. */
  readonly thinkingControl: Locator;
  /** The header's Context meter, found by its role and name. */
  readonly contextMeter: Locator;
  /** The breakdown's Compact now. */
  readonly compactNow: Locator;
  /** Where earlier messages were summarised, with the summary behind a disclosure. */
  readonly compactionDivider: Locator;
  /** The transcript's line saying earlier messages were summarised (by its English words). */
  readonly summarisedNote: Locator;
  /** The instructions panel: AGENTS.md's text, this chat's own field and Save. */
  readonly instructionsText: Locator;
  readonly instructionsOwn: Locator;
  readonly instructionsSave: Locator;
  /** "Processing the prompt… N s" while a local server reads the prompt, with its text and Stop. */
  readonly promptWait: Locator;
  readonly promptWaitText: Locator;
  readonly promptWaitStop: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId('chat-input');
    this.send = page.getByTestId('send-button');
    this.stop = page.getByTestId('stop-button');
    this.assistantMessages = page.getByTestId('message-assistant');
    this.userMessages = page.getByTestId('message-user');
    this.erroredCards = page.getByTestId('errored-turn-card');
    this.retryButtons = page.getByTestId('card-retry');
    this.retryAtButtons = page.getByTestId('card-retry-at');
    this.transcript = page.getByTestId('transcript');
    this.title = page.getByTestId('chat-title');
    this.modelPicker = page.getByTestId('model-picker');
    this.thinkingLevel = page.getByTestId('thinking-level');
    this.recoveredNote = page.getByTestId('recovered-note');
    this.recoveredSuccess = this.recoveredNote.locator('[data-action="success"]');
    this.recoveredSuccessBadges = this.recoveredSuccess.locator('.badge');
    this.recoveredPartial = this.recoveredNote.getByTestId('timeline-partial');
    this.continuedNote = page.getByTestId('continued-note');
    this.provider = page.getByTestId('chat-provider');
    this.pacingNotice = page.getByTestId('pacing-notice');
    this.attachInput = page.getByTestId('attach-input');
    this.attachmentChips = page.getByTestId('attachment-chip');
    this.attachmentRefusal = page.getByTestId('attachment-refusal');
    this.pendingAttachments = page.getByTestId('pending-attachments');
    this.pendingChips = this.pendingAttachments.getByTestId('attachment-chip');
    this.sendWithoutImages = page.getByRole('button', { name: 'Send without the images' });
    this.transcriptBold = page.locator('.transcript b');
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
    this.editInput = page.getByTestId('edit-input');
    this.editSend = page.getByTestId('edit-send');
    this.transcriptRows = page.locator('.transcript-list > li > *');
    this.transcriptItems = page.locator('.transcript-list > li');
    this.streamingReply = page.locator('[data-testid="message-assistant"][data-streaming]');
    this.loadOlder = page.getByTestId('load-older');
    this.sessionStart = page.getByTestId('session-start');
    this.modelSwitchRows = page.getByTestId('model-switch-row');
    this.thinkingControl = page.getByLabel('Thinking', { exact: true });
    this.contextMeter = page.getByRole('meter', { name: 'Context' });
    this.compactNow = this.contextBreakdown.getByTestId('compact-now');
    this.compactionDivider = page.getByTestId('compaction-divider');
    this.summarisedNote = page.getByText('Earlier messages were summarised');
    this.instructionsText = this.instructionsPanel.getByTestId('instructions-text');
    this.instructionsOwn = this.instructionsPanel.getByLabel('Instructions for this chat only');
    this.instructionsSave = this.instructionsPanel.getByTestId('instructions-save');
    this.promptWait = page.getByTestId('prompt-wait');
    this.promptWaitText = page.getByTestId('prompt-wait-text');
    this.promptWaitStop = this.promptWait.getByTestId('prompt-wait-stop');
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

  /** A chip's thumbnail, by its accessible name ("Image dot.png"). */
  attachmentImage(name: string): Locator {
    return this.attachmentChips.getByRole('img', { name });
  }

  /** A chip's remove button, by the file's name. */
  removeAttachment(file: string): Locator {
    return this.page.getByRole('button', { name: `Remove ${file}` });
  }

  /** Open the recovered note's timeline. */
  async openRecoveredNote(): Promise<void> {
    await this.recoveredNote.locator('summary').click();
  }

  /** Open the summary behind the compaction divider. */
  async openCompactionSummary(): Promise<void> {
    await this.compactionDivider.locator('summary').click();
  }

  /** The replies that show `text`. */
  repliesSaying(text: string): Locator {
    return this.assistantMessages.getByText(text);
  }

  /** The errored cards whose data-status is `status` (retrying, failed, …). */
  erroredCardsWithStatus(status: string): Locator {
    return this.page.locator(`[data-testid="errored-turn-card"][data-status="${status}"]`);
  }

  /** The last reply's parts. */
  lastReply(): ChatMessage {
    return new ChatMessage(this.lastAssistant());
  }

  /** The person's last message's parts. */
  lastPrompt(): ChatMessage {
    return new ChatMessage(this.userMessages.last());
  }

  /** The turn is over: its reply is stored (it offers Regenerate) and nothing streams or waits (no Stop). */
  async waitForTurnEnd(): Promise<void> {
    await expect(this.lastReply().regenerate).toBeVisible();
    await expect(this.stop).toBeHidden();
  }
}
