// "While you were away" (docs/architecture.md, "While you were away"): what a chat did between the
// last turn the person saw and their coming back (a retry chain it met, whole), built only from what the history keeps — the
// stored turns (failed attempts with their category, costs, tool results with their approval's
// answer and wait), the retry decisions (the waits), the chains' outcomes, the recorded file changes
// — and the chat's activity now (what is still scheduled), so it reads the same after a reload.
// Pure: ChatView builds it over the range use-away-range.ts holds, and places the card with
// withAwaySummary; AwaySummaryCard renders it.
import type { ChainOutcome, ErrorCategory } from '../../../shared/error-category';
import type { SessionActivity } from '../../../shared/events';
import type { SessionFileChanges } from '../../../shared/file-history';
import type { RetryDecisionRecord, TurnRecord } from '../../../shared/history';
import { toolDetailsOf } from '../../../shared/tools';
import type { ChainView } from '../store/state';
import type { ChatItem } from './chat-items';
import { toolCallsOf } from './tool-items';

/** The turns the person did not see: after `fromSeq`, up to `toSeq` (both turn seqs). */
export interface AwayRange {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
}

export interface AwayInput {
  range: AwayRange;
  turns: readonly TurnRecord[];
  chains: Readonly<Record<string, ChainView>>;
  decisions: readonly RetryDecisionRecord[];
  fileChanges: SessionFileChanges | null;
  /** This chat's entry of the activity list, if it works or waits now. */
  activity: SessionActivity | null;
  /** Approvals waiting for an answer now. */
  approvalsWaiting: number;
}

/** Failed attempts of one category and the waits the retries after them took. */
export interface AwayFailures {
  category: ErrorCategory;
  attempts: number;
  /** The retry waits decided after those attempts, ms (a scheduled one counts whole). */
  waitMs: number;
}

export interface AwaySummary {
  /** The model's replies that did not fail. */
  replies: number;
  toolCalls: number;
  /** By category, in the order first met. */
  failures: AwayFailures[];
  /** Chains met in the range that recovered, and that ended failed. */
  recovered: number;
  failed: number;
  /** Approvals answered in the range: how many, how long they waited in all and at most, how many denied. */
  approvals: { count: number; waitedMs: number; longestMs: number; denied: number };
  approvalsWaiting: number;
  /** Every attempt's cost (failed ones included); usd null when no attempt's price is known. */
  cost: { usd: number | null; tokens: number; unpriced: number };
  /** Files changed by the range's tool calls, by the person's messages whose runs made them (Undo acts on these). */
  files: { count: number; added: number; removed: number; applied: number; runs: string[] };
  /** What the chat still waits to do: a retry (its time), a schedule, a held prompt, the network. */
  scheduled: { state: 'retrying' | 'scheduled' | 'pacing' | 'offline'; until: number | null } | null;
}

const STILL_OR_RECOVERED = new Set<ChainOutcome>(['pending', 'recovered', 'compacted']);
const WAITING_STATES = new Set<SessionActivity['state']>(['retrying', 'scheduled', 'pacing', 'offline']);

const isFailedTurn = (turn: TurnRecord): boolean =>
  turn.stopReason === 'error' ||
  (turn.role === 'assistant' && Boolean(turn.errorMessage) && turn.stopReason !== 'aborted');

export function buildAwaySummary(input: AwayInput): AwaySummary {
  const { fromSeq, toSeq } = input.range;
  const inRange = input.turns.filter((t) => t.seq > fromSeq && t.seq <= toSeq);
  const ids = new Set(inRange.map((t) => t.id));
  const failures = new Map<ErrorCategory, AwayFailures>();
  const chainIds = new Set<string>();
  const approvals = { count: 0, waitedMs: 0, longestMs: 0, denied: 0 };
  const cost = { usd: null as number | null, tokens: 0, unpriced: 0 };
  let replies = 0;
  let toolCalls = 0;
  for (const turn of inRange) {
    if (turn.usage) {
      cost.tokens += turn.usage.totalTokens;
      if (turn.costUsd === null) cost.unpriced += turn.usage.totalTokens > 0 ? 1 : 0;
      else cost.usd = (cost.usd ?? 0) + turn.costUsd;
    }
    if (turn.chainId) chainIds.add(turn.chainId);
    if (isFailedTurn(turn)) continue;
    if (turn.role === 'assistant') {
      replies += 1;
      toolCalls += toolCallsOf(turn.message).length;
    }
    const approval = turn.message.role === 'toolResult' ? toolDetailsOf(turn.message.details).approval : undefined;
    if (approval) {
      approvals.count += 1;
      approvals.waitedMs += approval.waitedMs;
      approvals.longestMs = Math.max(approvals.longestMs, approval.waitedMs);
      if (approval.choice === 'deny') approvals.denied += 1;
    }
  }
  // A chain the range met is told whole: the person may have seen its first failure, then left
  // while it retried.
  const told = (chainId: string | null, turnId: string | null): boolean =>
    chainId !== null ? chainIds.has(chainId) : ids.has(turnId ?? '');
  for (const turn of input.turns) {
    if (!isFailedTurn(turn) || !told(turn.chainId, turn.id)) continue;
    failureOf(failures, turn.errorCategory ?? 'unexpected').attempts += 1;
  }
  for (const decision of input.decisions) {
    if (decision.action !== 'retry' || !told(decision.chainId, decision.context.turnId)) continue;
    failureOf(failures, decision.category).waitMs += Math.round(decision.waitSeconds * 1000);
  }
  const outcomes = [...chainIds].map((id) => input.chains[id]?.outcome);
  return {
    replies,
    toolCalls,
    failures: [...failures.values()],
    recovered: outcomes.filter((o) => o === 'recovered').length,
    failed: outcomes.filter((o) => o !== undefined && !STILL_OR_RECOVERED.has(o)).length,
    approvals,
    approvalsWaiting: input.approvalsWaiting,
    cost,
    files: filesOf(input.fileChanges, ids),
    scheduled: scheduledOf(input.activity),
  };
}

function failureOf(failures: Map<ErrorCategory, AwayFailures>, category: ErrorCategory): AwayFailures {
  const entry = failures.get(category) ?? { category, attempts: 0, waitMs: 0 };
  failures.set(category, entry);
  return entry;
}

function filesOf(changes: SessionFileChanges | null, turnIds: ReadonlySet<string>): AwaySummary['files'] {
  const made = (changes?.changes ?? []).filter((c) => turnIds.has(c.turnId));
  const runs = [...new Set(made.flatMap((c) => (c.userTurnId ? [c.userTurnId] : [])))];
  return {
    count: new Set(made.map((c) => c.path)).size,
    added: made.reduce((sum, c) => sum + c.added, 0),
    removed: made.reduce((sum, c) => sum + c.removed, 0),
    applied: made.filter((c) => c.state === 'applied').length,
    runs,
  };
}

function scheduledOf(activity: SessionActivity | null): AwaySummary['scheduled'] {
  if (!activity || !WAITING_STATES.has(activity.state)) return null;
  return { state: activity.state as 'retrying' | 'scheduled' | 'pacing' | 'offline', until: activity.until ?? null };
}

/**
 * Worth a card: something beyond a plain reply the sidebar's "New reply" already told — a failure,
 * an approval, a file changed, a wait still ahead, or a run of several steps.
 */
export function isWorthTelling(summary: AwaySummary): boolean {
  return (
    summary.failures.length > 0 ||
    summary.approvals.count > 0 ||
    summary.files.count > 0 ||
    summary.scheduled !== null ||
    summary.replies >= 2
  );
}

export interface AwaySummaryItem {
  kind: 'away-summary';
  key: string;
  sessionId: string;
  summary: AwaySummary;
}

/**
 * The card at the point where the person left: before the first row of a turn they did not see
 * (a message, a tool call, a failed attempt's card), else at the end.
 */
export function withAwaySummary(
  items: ChatItem[],
  turns: readonly TurnRecord[],
  range: AwayRange,
  summary: AwaySummary,
): ChatItem[] {
  const seqOfTurn = new Map(turns.map((t) => [t.id, t.seq]));
  const seqOfCall = new Map(turns.flatMap((t) => toolCallsOf(t.message).map((call) => [call.id, t.seq] as const)));
  const seqOf = (item: ChatItem): number | undefined => {
    if (item.kind === 'message') return item.turnId ? seqOfTurn.get(item.turnId) : undefined;
    if (item.kind === 'tool-call') return seqOfCall.get(item.toolCallId);
    if (item.kind === 'errored-chain') return seqOfTurn.get(item.attempts[0]?.key ?? '');
    return undefined;
  };
  const card: AwaySummaryItem = {
    kind: 'away-summary',
    key: `away-${range.fromSeq}`,
    sessionId: range.sessionId,
    summary,
  };
  const at = items.findIndex((item) => (seqOf(item) ?? -1) > range.fromSeq);
  return at < 0 ? [...items, card] : [...items.slice(0, at), card, ...items.slice(at)];
}
