// What one chat is doing, as the sidebar shows it (docs/architecture.md, "Chats side by side"):
// read from the session's live state, and — for a chat the person left — how its latest reply
// ended, once its work is over. Pure; the session pool (session-pool.ts) calls these.
import type { SessionActivity, SessionEvent } from '../../../shared/events';
import type { AgentSession } from './agent-session';

/** How a background chat's work ended: a reply to read, or a failure to look at. */
export type RunEnd = 'reply' | 'failed';

type ActivitySource = Pick<
  AgentSession,
  | 'sessionId'
  | 'title'
  | 'pendingApprovalCount'
  | 'spendingCapRequest'
  | 'pendingRetry'
  | 'pacingWait'
  | 'isCompacting'
  | 'isRetrying'
  | 'isWorking'
>;

/** The chat's state now; an approval (or the spending cap's question) first, since it waits on the person. */
export function activityOf(session: ActivitySource): SessionActivity {
  const base = { sessionId: session.sessionId, title: session.title || (session.pacingWait?.text ?? '') };
  if (session.pendingApprovalCount > 0 || session.spendingCapRequest) return { ...base, state: 'approval' };
  const pending = session.pendingRetry;
  if (pending?.offline) return { ...base, state: 'offline' };
  if (pending) return { ...base, state: pending.scheduled ? 'scheduled' : 'retrying', until: pending.retryAt };
  const held = session.pacingWait;
  if (held) return { ...base, state: 'pacing', until: held.until };
  if (session.isCompacting) return { ...base, state: 'compacting' };
  if (session.isWorking) return { ...base, state: 'streaming' };
  return { ...base, state: 'idle' };
}

/**
 * What an event says of how the run ends: a reply that ended in an error is a failure (a chain
 * that recovers ends with a later reply that did not); a chain that gave up is one too. A reply
 * the person stopped says nothing.
 */
export function endOfRun(event: SessionEvent): RunEnd | null {
  if (event.type === 'message_end' && event.message.role === 'assistant') {
    if (event.message.stopReason === 'aborted') return null;
    return event.message.stopReason === 'error' ? 'failed' : 'reply';
  }
  if (event.type === 'auto_retry_end' && !event.success && event.outcome !== 'cancelled') return 'failed';
  return null;
}

export function sameActivity(a: readonly SessionActivity[], b: readonly SessionActivity[]): boolean {
  return a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));
}
