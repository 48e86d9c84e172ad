// Where an edit-and-resend or a regenerate rewinds the current conversation to, worked out from the
// history (docs/architecture.md, "Branches"): the active path's messages before the replaced turn
// and that turn's seq. Pure over a HistoryReader; the session domain (domains/session-domain.ts) hands it to AgentSession.
import { activePath, type TurnRecord } from '../../shared/history';
import { attachmentBlocks, type AttachmentBlock, type ChatMessage } from '../../shared/messages';
import { CommandError } from '../../shared/wire';
import type { Rewind } from '../core/session/agent-session';
import type { HistoryReader } from '../core/ports';

function pathOf(history: HistoryReader, sessionId: string): TurnRecord[] {
  return activePath(history.getSession(sessionId)?.turns ?? []);
}

/** Edit a message of the person's: the new text replaces it and everything after it. */
export function rewindForEdit(history: HistoryReader, sessionId: string, turnId: string): Rewind {
  const turn = pathOf(history, sessionId).find((t) => t.id === turnId);
  if (!turn) throw new CommandError('not_found', 'That message is not in the current conversation.');
  if (turn.role !== 'user') throw new CommandError('failed', 'Only your own messages can be edited.');
  return { messages: history.loadContext(sessionId, { beforeSeq: turn.seq }), branchFrom: turn.seq };
}

/** The attachments an edited message sends again: those at the positions in `keep`, or all of them. */
export function editedAttachments(
  history: HistoryReader,
  sessionId: string,
  turnId: string,
  keep?: readonly number[],
): AttachmentBlock[] {
  const turn = pathOf(history, sessionId).find((t) => t.id === turnId);
  const all = turn ? attachmentBlocks(turn.message) : [];
  return keep ? all.filter((_, i) => keep.includes(i)) : all;
}

/**
 * Regenerate the last reply. When everything after the person's last message failed, nothing is
 * replaced (the failed card stays, the new reply follows it: this is "Retry" on that card); a
 * reply that arrived is replaced by a branch.
 */
export function rewindForRegenerate(history: HistoryReader, sessionId: string): Rewind {
  const path = pathOf(history, sessionId);
  const lastUser = path.findLastIndex((t) => t.role === 'user');
  if (lastUser < 0) throw new CommandError('failed', 'There is no message of yours to answer yet.');
  const after = path.slice(lastUser + 1);
  const onlyFailures = after.every((t) => t.stopReason === 'error');
  const messages = history.loadContext(sessionId, onlyFailures ? {} : { beforeSeq: after[0].seq });
  return { messages, branchFrom: onlyFailures ? null : after[0].seq };
}

/** The last turn of the conversation when it is a failed or stopped reply (Continue goes on from it). */
export function lastFailedReply(history: HistoryReader, sessionId: string): ChatMessage | undefined {
  const last = pathOf(history, sessionId).at(-1);
  const failed = last?.role === 'assistant' && (last.stopReason === 'error' || last.stopReason === 'aborted');
  return failed ? last.message : undefined;
}
