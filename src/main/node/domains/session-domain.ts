// The session domain: the conversation in the window and the commands on it (session.*, but the
// tools' three, which tools-domain.ts answers) — prompt, stop, the retry banner's buttons, a new
// or resumed chat, compaction, and the message actions that rewind it (edit, regenerate, continue;
// docs/architecture.md, "Branches"). Built by the composition root (app-services.ts).
import { newId } from '../../../shared/ids';
import type { CommandHandlers, SessionInstructions } from '../../../shared/contract';
import type { SessionEvent, SessionSnapshot } from '../../../shared/events';
import { TURN_PAGE_SIZE } from '../../../shared/history';
import type { NoticeText } from '../../../shared/notices';
import type { AgentSession } from '../../core/agent-session';
import type { ProjectInstructions } from '../../core/system-prompt';
import type { SqliteHistoryStore } from '../history/sqlite-history-store';
import type { ActiveModel } from '../active-model';
import { editedAttachments, lastFailedReply, rewindForEdit, rewindForRegenerate } from '../conversation-edits';
import { buildAttachmentContent } from '../attachments/build-content';
import type { AttachmentUpload } from '../../../shared/attachments';
import type { AttachmentBlock } from '../../../shared/messages';
import { CommandError } from '../../../shared/wire';
import { findSchedulableRetry } from '../../core/retry';
import type { Settings } from '../../../shared/settings';
import { asInvalid, found, refuseWhileBusy, startTurn } from './command-helpers';
import type { SessionInstructionsStore } from '../session-instructions-store';

export interface SessionDomainParts {
  session: AgentSession;
  history: SqliteHistoryStore;
  activeModel: ActiveModel;
  /** Where a session from before tools works: the run's folder. */
  runWorkspace: string;
  publish: (event: SessionEvent) => void;
  report: (notice: NoticeText) => void;
  retrySettings: () => Settings['retry'];
  /** The workspace's AGENTS.md (or CLAUDE.md), as the system prompt reads it. */
  projectInstructions: (workspace: string) => ProjectInstructions | null;
  /** Each conversation's own instructions, by session id, kept in the history. */
  sessionInstructions: SessionInstructionsStore;
  /** Told before every snapshot goes out: the session's workspace may have changed. */
  workspaceMayChange: () => void;
}

type SessionCommand = Exclude<
  Extract<keyof CommandHandlers, `session.${string}`>,
  'session.approveTool' | 'session.setWorkspace' | 'session.pickWorkspace'
>;

export class SessionDomain {
  constructor(private readonly parts: SessionDomainParts) {}

  readonly commands = {
    'session.getState': () => this.snapshot(),
    'session.prompt': async ({ text, attachments }) => {
      // A refused attachment refuses the prompt: nothing is sent (docs/attachments.md).
      refuseWhileBusy(this.parts.session);
      const blocks = attachments?.length ? await asInvalid(() => this.prepareAttachments(attachments)) : [];
      return this.startTurn(() => this.parts.session.prompt(text, blocks, attachments));
    },
    'session.edit': ({ turnId, text, keepAttachments }) =>
      this.startTurn(() => this.editTurn(turnId, text, keepAttachments)),
    'session.regenerate': () => this.startTurn(() => this.regenerate()),
    'session.continue': () => this.startTurn(() => this.continueTurn()),
    'session.abort': async () => {
      await this.parts.session.abort();
      return { aborted: true };
    },
    'session.abortRetry': () => ({ aborted: this.parts.session.abortRetry() }),
    'session.retryNow': () => ({ skipped: this.parts.session.retryNow() }),
    'session.sendAnyway': () => ({ sent: this.parts.session.sendAnyway() }),
    'session.resumeInterrupted': ({ chainId }) => ({ resumed: this.resumeInterrupted(chainId) }),
    'session.discardInterrupted': ({ chainId }) => ({ discarded: this.discardInterrupted(chainId) }),
    'session.scheduleRetry': ({ chainId }) => ({ scheduled: this.scheduleRetry(chainId) }),
    'session.new': () => ({ sessionId: this.newSession() }),
    'session.resume': ({ sessionId }) => {
      found(this.parts.history.sessionSummary(sessionId), `session ${sessionId}`);
      this.resumeSession(sessionId);
      return { sessionId };
    },
    'session.compact': () => this.parts.session.compact(),
    'session.instructions': () => this.instructions(),
    'session.setInstructions': ({ override }) => this.setInstructions(override),
  } satisfies Pick<CommandHandlers, SessionCommand>;

  /** The current session with the newest page of what the history holds for it (the client pages back). */
  snapshot(): SessionSnapshot {
    const { session, history } = this.parts;
    const stored = history.getSession(session.sessionId, TURN_PAGE_SIZE);
    return session.snapshot(stored ?? { turns: [], chains: [], decisions: [], hasOlderTurns: false });
  }

  /** Start a new conversation, in the folder the last one worked in; its snapshot goes out as session_changed. */
  newSession(): string {
    const { session, activeModel } = this.parts;
    activeModel.sessionChanging();
    session.replaceConversation({
      sessionId: newId(),
      title: '',
      messages: [],
      stored: false,
      workspace: session.tools?.workspace,
    });
    this.publishSnapshot();
    return session.sessionId;
  }

  /** Switch to a stored conversation; its snapshot goes out as session_changed. */
  resumeSession(sessionId: string): void {
    const { session, history, activeModel } = this.parts;
    const summary = history.sessionSummary(sessionId);
    if (!summary) throw new Error(`session ${sessionId} not found`);
    activeModel.sessionChanging();
    session.replaceConversation({
      sessionId,
      title: summary.title,
      messages: history.loadContext(sessionId),
      stored: true,
      // Sessions from before tools have none: they work in the run's folder.
      workspace: summary.workspace || this.parts.runWorkspace,
    });
    this.publishSnapshot();
  }

  /** What the current conversation's agent reads beyond Resolute's own words (docs/thinking-and-context.md). */
  instructions(): SessionInstructions {
    const { session, runWorkspace, projectInstructions, sessionInstructions } = this.parts;
    const project = projectInstructions(session.tools?.workspace ?? runWorkspace);
    return {
      project: project && { file: project.file, text: project.text, truncated: project.truncated },
      override: sessionInstructions.get(session.sessionId) ?? null,
    };
  }

  /** The conversation's own instructions, from its next request on; null or empty text removes them. */
  setInstructions(override: SessionInstructions['override']): SessionInstructions {
    const { session, sessionInstructions } = this.parts;
    if (override && override.text.trim()) sessionInstructions.set(session.sessionId, override);
    else sessionInstructions.delete(session.sessionId);
    return this.instructions();
  }

  /** Edit and resend a message of the current conversation, its attachments with it; resolves when the turn has ended. */
  editTurn(turnId: string, text: string, keepAttachments?: number[]): Promise<void> {
    const { session, history } = this.parts;
    const rewind = rewindForEdit(history, session.sessionId, turnId);
    const attachments = editedAttachments(history, session.sessionId, turnId, keepAttachments);
    if (!text && attachments.length === 0)
      throw new CommandError('invalid_params', 'session.edit: text: must not be empty');
    return session.rewindAndPrompt(rewind, text, attachments);
  }

  /** A prompt's uploads as content for the model the session uses now (build-content.ts). */
  prepareAttachments(uploads: AttachmentUpload[]): Promise<AttachmentBlock[]> {
    return buildAttachmentContent(uploads, this.parts.session.model);
  }

  /** Regenerate the last reply (or try a failed one again); resolves when the turn has ended. */
  regenerate(): Promise<void> {
    const { session, history } = this.parts;
    return session.rewindAndContinue(rewindForRegenerate(history, session.sessionId));
  }

  /** Continue a stopped or cut-off reply: the failed reply comes from the history after a restart. */
  continueTurn(): Promise<void> {
    const { session, history } = this.parts;
    return session.continueTurn(lastFailedReply(history, session.sessionId));
  }

  /** "Retry now" on the interrupted-turn card; false when the chain is not the one on offer. */
  resumeInterrupted(chainId: string): boolean {
    const offer = this.snapshot().interruptedRetry;
    if (!offer || offer.chainId !== chainId) return false;
    this.parts.session.resumeInterruptedRetry(offer);
    return true;
  }

  /** "Discard" on the card: the chain stays interrupted and is not offered again. */
  discardInterrupted(chainId: string): boolean {
    const offer = this.snapshot().interruptedRetry;
    if (!offer || offer.chainId !== chainId) return false;
    this.parts.session.discardInterruptedRetry(offer);
    this.publishSnapshot();
    return true;
  }

  /** "Retry at …" on the card of the current session's chain that stopped for a long wait. */
  scheduleRetry(chainId: string): boolean {
    const { session, history, retrySettings } = this.parts;
    const stored = history.getSession(session.sessionId, TURN_PAGE_SIZE);
    const offer = stored ? findSchedulableRetry(stored, chainId, retrySettings()) : null;
    if (!offer) return false;
    session.scheduleRetry(offer, 'person');
    return true;
  }

  /**
   * Take up the soonest schedule a quit or a crash left (docs/retry-policy.md, "Scheduled retries"):
   * open its session and wait for its time, or retry at once when it has passed. False when none.
   */
  resumeScheduled(): boolean {
    const { session, history } = this.parts;
    for (const { chainId, sessionId, scheduledAt } of history.scheduledChains()) {
      const stored = history.getSession(sessionId, TURN_PAGE_SIZE);
      const offer = stored ? session.snapshot(stored).interruptedRetry : null;
      if (offer?.chainId !== chainId) continue;
      this.resumeSession(sessionId);
      session.scheduleRetry({ ...offer, retryAt: scheduledAt }, 'restart');
      return true;
    }
    return false;
  }

  /** Open the newest session whose interrupted chain can be continued, if there is one (a window's start). */
  openInterruptedSession(): void {
    const { session, history } = this.parts;
    for (const sessionId of history.interruptedSessions()) {
      const stored = history.getSession(sessionId, TURN_PAGE_SIZE);
      if (!stored || !session.snapshot(stored).interruptedRetry) continue;
      this.resumeSession(sessionId);
      return;
    }
  }

  publishSnapshot(): void {
    this.parts.workspaceMayChange();
    this.parts.publish({ type: 'session_changed', snapshot: this.snapshot() });
  }

  private startTurn(start: () => Promise<void>): { accepted: true } {
    return startTurn({ isBusy: this.parts.session.isBusy, report: this.parts.report }, start);
  }
}
