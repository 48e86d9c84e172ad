// The session domain: the conversation in the window and the commands on it (session.*, but the
// tools' three, which tools-domain.ts answers) — prompt, stop, the retry banner's buttons, a new
// or resumed chat, compaction, and the message actions that rewind it (edit, regenerate, continue;
// docs/architecture.md, "Branches"). A chat left while it works runs on in the session pool
// ("Chats side by side"). Built by the composition root (app-services.ts).
import { newId } from '../../../shared/ids';
import type { CommandHandlers, SessionInstructions } from '../../../shared/contract';
import type { SessionEvent, SessionSnapshot } from '../../../shared/events';
import { TURN_PAGE_SIZE } from '../../../shared/history';
import type { NoticeText } from '../../../shared/notice-params';
import type { AgentSession } from '../../core/session/agent-session';
import type { SessionPool } from '../../core/session/session-pool';
import type { ProjectInstructions } from '../../core/session/system-prompt';
import type { SqliteHistoryStore } from '../history/sqlite-history-store';
import type { ActiveModel } from '../active-model';
import { editedAttachments, lastFailedReply, rewindForEdit, rewindForRegenerate } from '../conversation-edits';
import { buildAttachmentContent, prepareUpload } from '../attachments/build-content';
import type { AttachmentUpload } from '../../../shared/attachments';
import type { AttachmentBlock } from '../../../shared/messages';
import { CommandError } from '../../../shared/wire';
import { findSchedulableRetry } from '../../core/retry';
import type { ModelRef, Settings } from '../../../shared/settings';
import { asInvalid, found, refuseWhileBusy, startTurn } from './command-helpers';
import type { SessionInstructionsStore } from '../session-instructions-store';

export interface SessionDomainParts {
  /** The chats: the shown one (which these commands act on) and those working in the background. */
  pool: SessionPool;
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

  /** The chat shown now. */
  private get session(): AgentSession {
    return this.parts.pool.current;
  }

  readonly commands = {
    'session.getState': () => this.snapshot(),
    'session.prepareAttachment': (upload) => ({ preparing: prepareUpload(upload) }),
    'session.prompt': async ({ text, attachments }) => {
      // A refused attachment refuses the prompt: nothing is sent (docs/attachments.md).
      refuseWhileBusy(this.session);
      const blocks = attachments?.length ? await asInvalid(() => this.prepareAttachments(attachments)) : [];
      return this.startTurn(() => this.session.prompt(text, blocks, attachments));
    },
    'session.edit': ({ turnId, text, keepAttachments }) =>
      this.startTurn(() => this.editTurn(turnId, text, keepAttachments)),
    'session.regenerate': () => this.startTurn(() => this.regenerate()),
    'session.continue': ({ on, endOfflinePause }) => {
      if (endOfflinePause) this.endOfflinePause();
      return this.startTurn(() => this.continueTurn(on));
    },
    'session.abort': async () => {
      await this.session.abort();
      return { aborted: true };
    },
    'session.abortRetry': () => ({ aborted: this.session.abortRetry() }),
    'session.retryNow': () => ({ skipped: this.session.retryNow() }),
    'session.sendAnyway': () => ({ sent: this.session.sendAnyway() }),
    'session.resumeInterrupted': ({ chainId }) => ({ resumed: this.resumeInterrupted(chainId) }),
    'session.discardInterrupted': ({ chainId }) => ({ discarded: this.discardInterrupted(chainId) }),
    'session.scheduleRetry': ({ chainId }) => ({ scheduled: this.scheduleRetry(chainId) }),
    'session.new': () => ({ sessionId: this.newSession() }),
    'session.resume': ({ sessionId }) => {
      // A chat working in the background may not be stored yet (its first prompt held for a rate limit).
      if (!this.parts.pool.find(sessionId)) found(this.parts.history.sessionSummary(sessionId), `session ${sessionId}`);
      this.resumeSession(sessionId);
      return { sessionId };
    },
    'session.compact': () => this.session.compact(),
    'session.instructions': () => this.instructions(),
    'session.setInstructions': ({ override }) => this.setInstructions(override),
    'session.answerSpendingCap': ({ id, choice }) => ({ answered: this.session.answerSpendingCap(id, choice) }),
    'session.setBudget': ({ budget }) => {
      this.session.setBudget(budget);
      return { budget };
    },
  } satisfies Pick<CommandHandlers, SessionCommand>;

  /** The current session with the newest page of what the history holds for it (the client pages back). */
  snapshot(): SessionSnapshot {
    const { session } = this;
    const { history, pool } = this.parts;
    const stored = history.getSession(session.sessionId, TURN_PAGE_SIZE);
    const state = session.snapshot(stored ?? { turns: [], chains: [], decisions: [], hasOlderTurns: false });
    return { ...state, activity: pool.activity() };
  }

  /**
   * Start a new conversation, in the folder the last one worked in; its snapshot goes out as
   * session_changed. A chat that works meanwhile runs on in the background.
   */
  newSession(): string {
    const { activeModel, pool } = this.parts;
    const workspace = this.session.tools?.workspace;
    const session = pool.vacate();
    activeModel.sessionChanging();
    session.replaceConversation({ sessionId: newId(), title: '', messages: [], stored: false, workspace });
    this.publishSnapshot();
    return session.sessionId;
  }

  /**
   * Switch to another conversation; its snapshot goes out as session_changed. One working in the
   * background comes back with its live state (its stream, its banner, its approvals); the chat
   * left runs on there if it works.
   */
  resumeSession(sessionId: string): void {
    const { history, activeModel, pool } = this.parts;
    pool.seen(sessionId);
    // Already shown (and perhaps working): nothing to load.
    if (this.session.sessionId === sessionId && this.session.isWorking) return this.publishSnapshot();
    if (pool.bringForward(sessionId)) return this.publishSnapshot();
    const summary = history.sessionSummary(sessionId);
    if (!summary) throw new Error(`session ${sessionId} not found`);
    const session = pool.vacate();
    activeModel.sessionChanging();
    session.replaceConversation({
      sessionId,
      title: summary.title,
      messages: history.loadContext(sessionId),
      stored: true,
      // Sessions from before tools have none: they work in the run's folder.
      workspace: summary.workspace || this.parts.runWorkspace,
    });
    // An approval a quit or a crash left unanswered is asked again (docs/tools.md, "Approvals").
    session.restoreApprovals(history.toolRuns.approvalsOf(sessionId));
    // The spending cap's question likewise (docs/tools.md, "The spending cap").
    session.restoreSpendingCap(history.spendingCapQuestion(sessionId));
    this.publishSnapshot();
  }

  /** What the current conversation's agent reads beyond Resolute's own words (docs/thinking-and-context.md). */
  instructions(): SessionInstructions {
    const { session } = this;
    const { runWorkspace, projectInstructions, sessionInstructions } = this.parts;
    const project = projectInstructions(session.tools?.workspace ?? runWorkspace);
    return {
      project: project && { file: project.file, text: project.text, truncated: project.truncated },
      override: sessionInstructions.get(session.sessionId) ?? null,
    };
  }

  /** The conversation's own instructions, from its next request on; null or empty text removes them. */
  setInstructions(override: SessionInstructions['override']): SessionInstructions {
    const { session } = this;
    const { sessionInstructions } = this.parts;
    if (override && override.text.trim()) sessionInstructions.set(session.sessionId, override);
    else sessionInstructions.delete(session.sessionId);
    return this.instructions();
  }

  /** Edit and resend a message of the current conversation, its attachments with it; resolves when the turn has ended. */
  editTurn(turnId: string, text: string, keepAttachments?: number[]): Promise<void> {
    const { session } = this;
    const { history } = this.parts;
    const rewind = rewindForEdit(history, session.sessionId, turnId);
    const attachments = editedAttachments(history, session.sessionId, turnId, keepAttachments);
    if (!text && attachments.length === 0)
      throw new CommandError('invalid_params', 'session.edit: text: must not be empty');
    return session.rewindAndPrompt(rewind, text, attachments);
  }

  /** A prompt's uploads as content for the model the session uses now (build-content.ts). */
  prepareAttachments(uploads: AttachmentUpload[]): Promise<AttachmentBlock[]> {
    return buildAttachmentContent(uploads, this.session.model);
  }

  /** Regenerate the last reply (or try a failed one again); resolves when the turn has ended. */
  regenerate(): Promise<void> {
    const { session } = this;
    const { history } = this.parts;
    return session.rewindAndContinue(rewindForRegenerate(history, session.sessionId));
  }

  /**
   * Continue a stopped or cut-off reply: the failed reply comes from the history after a restart.
   * `on`: another model goes on from it, as a failover would (held for this prompt).
   */
  continueTurn(on?: ModelRef): Promise<void> {
    const { session } = this;
    const { history, activeModel } = this.parts;
    const failedReply = lastFailedReply(history, session.sessionId);
    if (on) activeModel.continueOn(on);
    return session.continueTurn(failedReply);
  }

  /**
   * The offline banner's "Continue on <model>": the chain paused offline ends (cancelled, as the
   * banner's Cancel ends it) so that the continue that follows in the same command finds the
   * session free; refused when no chain is paused offline, so a click that lost a race to the
   * network's return changes nothing.
   */
  private endOfflinePause(): void {
    const { session } = this;
    if (!session.pendingRetry?.offline || !session.abortRetry())
      throw new CommandError('failed', 'No retry is paused offline; nothing was changed.');
  }

  /** "Retry now" on the interrupted-turn card; false when the chain is not the one on offer. */
  resumeInterrupted(chainId: string): boolean {
    const offer = this.snapshot().interruptedRetry;
    if (!offer || offer.chainId !== chainId) return false;
    this.session.resumeInterruptedRetry(offer);
    return true;
  }

  /** "Discard" on the card: the chain stays interrupted and is not offered again. */
  discardInterrupted(chainId: string): boolean {
    const offer = this.snapshot().interruptedRetry;
    if (!offer || offer.chainId !== chainId) return false;
    this.session.discardInterruptedRetry(offer);
    this.publishSnapshot();
    return true;
  }

  /** "Retry at …" on the card of the current session's chain that stopped for a long wait. */
  scheduleRetry(chainId: string): boolean {
    const { session } = this;
    const { history, retrySettings } = this.parts;
    const stored = history.getSession(session.sessionId, TURN_PAGE_SIZE);
    const offer = stored ? findSchedulableRetry(stored, chainId, retrySettings()) : null;
    if (!offer) return false;
    session.scheduleRetry(offer, 'person');
    return true;
  }

  /**
   * Take up the schedules a quit or a crash left (docs/retry-policy.md, "Scheduled retries"): each
   * in its own chat, waiting for its time or retrying at once when it has passed; the soonest is
   * shown, the others run in the background. False when there was none.
   */
  resumeScheduled(): boolean {
    const { history } = this.parts;
    const schedules = history.scheduledChains().flatMap(({ chainId, sessionId, scheduledAt }) => {
      const stored = history.getSession(sessionId, TURN_PAGE_SIZE);
      const offer = stored ? this.session.snapshot(stored).interruptedRetry : null;
      return offer?.chainId === chainId ? [{ sessionId, retry: { ...offer, retryAt: scheduledAt } }] : [];
    });
    // The soonest last, so that it is the one left shown.
    for (const { sessionId, retry } of schedules.reverse()) {
      this.resumeSession(sessionId);
      this.session.scheduleRetry(retry, 'restart');
    }
    return schedules.length > 0;
  }

  /**
   * Open the newest session whose interrupted chain can be continued (a window's start), else the
   * newest of `cutByStop`, chats whose tool call a quit or a crash cut off. False when there was none.
   */
  openInterruptedSession(cutByStop: readonly string[] = []): boolean {
    const { session } = this;
    const { history } = this.parts;
    for (const sessionId of history.interruptedSessions()) {
      const stored = history.getSession(sessionId, TURN_PAGE_SIZE);
      if (!stored || !session.snapshot(stored).interruptedRetry) continue;
      this.resumeSession(sessionId);
      return true;
    }
    const newest = cutByStop.at(-1);
    if (newest) this.resumeSession(newest);
    return newest !== undefined;
  }

  publishSnapshot(): void {
    this.parts.workspaceMayChange();
    this.parts.publish({ type: 'session_changed', snapshot: this.snapshot() });
  }

  private startTurn(start: () => Promise<void>): { accepted: true } {
    return startTurn({ isBusy: this.session.isBusy, report: this.parts.report }, start);
  }
}
