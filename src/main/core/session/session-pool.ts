// The app's chats side by side (docs/architecture.md, "Chats side by side"): one shown session,
// whose events go to the windows as before, and the sessions the person left while they worked —
// streaming, retrying, scheduled hours away, waiting for an approval — each with its own agent and
// chain, running on in the background until their work ends. Their events never reach the shown
// chat's view; what they are doing reaches the sidebar as a list of SessionActivity. Built by the
// composition root (app-services.ts); the session domain moves sessions in and out.
import type { SessionActivity, SessionEvent } from '../../../shared/events';
import type { AgentSession } from './agent-session';
import { activityOf, endOfRun, sameActivity, type RunEnd } from './session-activity';

export interface SessionPoolParts {
  /** A fresh AgentSession (the composition root builds it with the app's shared parts). */
  create(): AgentSession;
  /** Every event of every session, and which session it came from. */
  onEvent(event: SessionEvent, session: AgentSession, isShown: boolean): void;
  /** The chats' activity changed (sessions_activity). */
  onActivity(sessions: SessionActivity[]): void;
  /** A background session ended its work and left the pool. */
  onRetired?(sessionId: string): void;
  /** Chats not loaded whose approval, asked before a restart, waits for the person. */
  storedApprovals?(): { sessionId: string; title: string }[];
}

interface Background {
  session: AgentSession;
  /** How its latest reply ended, for the sidebar once its work is over. */
  end: RunEnd | null;
}

/** How often a background session that is busy with nothing to wait on is asked again, ms. */
const IDLE_CHECK_MS = 200;

export class SessionPool {
  private shown: AgentSession;
  private readonly background = new Map<string, Background>();
  /** Chats that ended their work while not shown, and how: told once, until the person opens them. */
  private readonly unseen = new Map<string, { title: string; attention: 'reply' | 'failed' }>();
  private published: SessionActivity[] = [];

  constructor(private readonly parts: SessionPoolParts) {
    this.shown = this.create();
  }

  /** The session the windows show and the commands act on. */
  get current(): AgentSession {
    return this.shown;
  }

  /** Every live session: the shown one first. */
  get sessions(): AgentSession[] {
    return [this.shown, ...[...this.background.values()].map((b) => b.session)];
  }

  /** The live session of this conversation, shown or not. */
  find(sessionId: string): AgentSession | undefined {
    if (this.shown.sessionId === sessionId) return this.shown;
    return this.background.get(sessionId)?.session;
  }

  /** Sessions working in the background now. */
  get backgroundCount(): number {
    return this.background.size;
  }

  /**
   * Make room to show another conversation: the shown session, if it works, goes on in the
   * background and a fresh one takes its place. Returns the session to load the conversation into.
   */
  vacate(): AgentSession {
    if (this.shown.isWorking) {
      this.toBackground(this.shown);
      this.shown = this.create();
    }
    return this.shown;
  }

  /** Show a background session again, with its live state; false when none runs for this id. */
  bringForward(sessionId: string): boolean {
    const entry = this.background.get(sessionId);
    if (!entry) return false;
    this.background.delete(sessionId);
    const previous = this.shown;
    if (previous.isWorking) this.toBackground(previous);
    else previous.dispose();
    this.shown = entry.session;
    this.unseen.delete(sessionId);
    this.publishActivity();
    return true;
  }

  /** The person opened this chat: what they had not seen there is seen. */
  seen(sessionId: string): void {
    if (this.unseen.delete(sessionId)) this.publishActivity();
  }

  /** What every chat that works or wants the person is doing, the shown one first. */
  activity(): SessionActivity[] {
    const live = this.sessions.map((session) => {
      const isShown = session === this.shown;
      const state = activityOf(session);
      return isShown || state.state !== 'approval' ? state : { ...state, attention: 'approval' as const };
    });
    const ended = [...this.unseen].map(([sessionId, { title, attention }]) => ({
      sessionId,
      title,
      state: 'idle' as const,
      attention,
    }));
    const known = new Set([...live.map((a) => a.sessionId), ...this.unseen.keys()]);
    const stored = (this.parts.storedApprovals?.() ?? [])
      .filter((chat) => !known.has(chat.sessionId))
      .map((chat) => ({ ...chat, state: 'approval' as const, attention: 'approval' as const }));
    return [...live.filter((a) => a.state !== 'idle' || a.sessionId === this.shown.sessionId), ...ended, ...stored];
  }

  /** Retry chains waiting now (a countdown, an offline pause, a schedule): what a quit keeps for the next start. */
  waitingChains(): number {
    return this.sessions.filter((session) => session.isRetrying).length;
  }

  /** The app quits: every session stops, and each waiting chain is kept as interrupted. */
  async shutdown(): Promise<void> {
    await Promise.all(this.sessions.map((session) => session.shutdown().catch(() => undefined)));
  }

  dispose(): void {
    for (const session of this.sessions) session.dispose();
    this.background.clear();
  }

  /** A new session, heard for its whole life (dispose drops its listeners). */
  private create(): AgentSession {
    const session = this.parts.create();
    session.subscribe((event) => this.onEvent(session, event));
    return session;
  }

  private onEvent(session: AgentSession, event: SessionEvent): void {
    const isShown = session === this.shown;
    const entry = isShown ? undefined : this.background.get(session.sessionId);
    if (entry) entry.end = endOfRun(event) ?? entry.end;
    this.parts.onEvent(event, session, isShown);
    // A streaming reply's updates change nothing the sidebar shows.
    if (event.type !== 'message_update') this.publishActivity();
  }

  private toBackground(session: AgentSession): void {
    const entry: Background = { session, end: null };
    this.background.set(session.sessionId, entry);
    void this.retireWhenDone(entry);
  }

  /** Wait for a background session's work to end, then let it go and tell the sidebar how it ended. */
  private async retireWhenDone(entry: Background): Promise<void> {
    const { session } = entry;
    for (;;) {
      await session.settled();
      // Shown again meanwhile (a later move to the background starts its own wait).
      if (this.background.get(session.sessionId) !== entry) return;
      if (!session.isWorking) break;
      await new Promise((resolve) => setTimeout(resolve, IDLE_CHECK_MS));
    }
    this.background.delete(session.sessionId);
    session.dispose();
    if (entry.end) this.unseen.set(session.sessionId, { title: session.title, attention: entry.end });
    this.parts.onRetired?.(session.sessionId);
    this.publishActivity();
  }

  private publishActivity(): void {
    const next = this.activity();
    if (sameActivity(next, this.published)) return;
    this.published = next;
    this.parts.onActivity(next);
  }
}
