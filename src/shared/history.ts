// Records of the SQLite history (docs/architecture.md, "Where data lives") as the contract carries
// them: sessions, turns (errored turns included), retry chains and retry decisions. The store in
// src/main/node/history produces them; the renderer's history view and the RPC clients read them.
import type { ChainOutcome, ErrorCategory } from './error-category';
import type { ChatMessage, ChatUsage, StopReason } from './messages';

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model: string;
  provider: string;
  turnCount: number;
  erroredTurnCount: number;
  /** The folder the session's tools worked in ('' for sessions from before tools). */
  workspace: string;
  /** The tokens and cost of all its stored turns (absent where a summary is made without the store). */
  usage?: SessionUsageTotal;
}

/** A session's tokens and cost: every stored attempt, failed ones included (they were paid for). */
export interface SessionUsageTotal {
  tokens: number;
  /** USD of the turns whose price is known; null when no turn's price is known. */
  costUsd: number | null;
  /** Turns that used tokens at a price not known (their cost is left out of costUsd). */
  unpriced: number;
}

export interface TurnRecord {
  id: string;
  sessionId: string;
  /** Order within the session, from 1. */
  seq: number;
  role: ChatMessage['role'];
  /** Plain text, for search and display. */
  text: string;
  message: ChatMessage;
  model: string | null;
  provider: string | null;
  stopReason: StopReason | null;
  errorMessage: string | null;
  errorCategory: ErrorCategory | null;
  /** The retry chain this errored turn (or the turn that recovered it) belongs to. */
  chainId: string | null;
  createdAt: number;
  usage: ChatUsage | null;
  /** What this attempt cost in USD at the model's list price; null when the price is unknown. */
  costUsd: number | null;
  /**
   * Set on the first turn of a branch (an edited and resent message, a regenerated reply): the seq
   * of the first turn it replaces. The replaced turns stay in the history; activePath() leaves them out.
   */
  branchFrom?: number | null;
}

export type DecisionAction = 'retry' | 'abort' | 'skip' | 'compact';
export type LogLevel = 'INFO' | 'WARNING' | 'ERROR';

/** One structured record per retry decision (docs/retry-policy.md, "The observability record"). */
export interface RetryDecisionRecord {
  id: string;
  /** ISO 8601. */
  timestamp: string;
  level: LogLevel;
  /** The category's exception class from the decision table, e.g. ModelRateLimitError. */
  errorType: string;
  category: ErrorCategory;
  /** The attempt that failed, 1-based (the first try is attempt 1). */
  attempt: number;
  action: DecisionAction;
  waitSeconds: number;
  reason: string;
  errorMessage: string;
  /** The wait the provider asked for, ms, when it gave one. */
  hintMs?: number;
  /** Set when hintMs was above retry.maxDelayMs (the chain ended, or its retry was scheduled): that maximum, ms. */
  maxDelayMs?: number;
  /**
   * Epoch ms the next attempt goes at: a scheduled retry's time, or — on a stop for a wait above the
   * maximum delay, up to 24 h — the time the provider named, which "Retry at …" schedules.
   */
  retryAt?: number;
  /** This retry waits for the time the provider named (docs/retry-policy.md, "Scheduled retries"). */
  scheduled?: boolean;
  context: {
    taskType: string;
    modelId: string;
    provider: string;
    sessionId: string;
    turnId: string | null;
    /** A usage limit on modelId switched the session to this model of the fallback list. */
    switchedTo?: { provider: string; modelId: string };
  };
  /** Set when this decision ends the chain. */
  finalDecision: 'abort' | 'success' | null;
  chainId: string | null;
}

/** Failed attempts added up (docs/retry-policy.md, "What failures cost"). */
export interface FailureCostTotals {
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  /** The cost of the attempts whose model's price is known, USD. */
  costUsd: number;
  /** Attempts whose model's price is unknown: their tokens count, their cost cannot. */
  unpricedAttempts: number;
}

/** The history view's totals of failed attempts since a time, per session and per category. */
export interface FailureCostReport {
  /** Epoch ms the period starts at; null for all of the history. */
  since: number | null;
  total: FailureCostTotals;
  sessions: (FailureCostTotals & { sessionId: string; title: string })[];
  categories: (FailureCostTotals & { category: ErrorCategory })[];
}

export interface RetryChainRecord {
  id: string;
  sessionId: string;
  outcome: ChainOutcome;
  /** Retries actually started. */
  attempts: number;
  finalError: string | null;
  startedAt: number;
  endedAt: number | null;
}

/** A stored session: every turn (history.get without a limit), or its newest page (with one). */
export interface SessionDetail {
  session: SessionSummary;
  turns: TurnRecord[];
  chains: RetryChainRecord[];
  decisions: RetryDecisionRecord[];
  /** Turns older than the first in `turns` exist (only ever true for a limited read). */
  hasOlderTurns: boolean;
}

/**
 * A page of one session's turns, oldest first, with the retry chains and decisions those turns
 * need. The newest page comes first (history.get with a limit, the session snapshot); older pages
 * follow with history.turns, `beforeSeq` being the page's oldest seq, until hasOlderTurns is false.
 */
export interface TurnPage {
  sessionId: string;
  turns: TurnRecord[];
  chains: RetryChainRecord[];
  decisions: RetryDecisionRecord[];
  /** Turns older than the first of this page exist. */
  hasOlderTurns: boolean;
}

/** How many turns a page holds when the caller does not say. */
export const TURN_PAGE_SIZE = 100;

/** One errored exchange for the history's errored filter: one per retry chain, with its whole timeline. */
export interface ErroredTurn {
  /** The chain's latest failed attempt (the one the card headlines). */
  turn: TurnRecord;
  /** Every failed attempt of the chain, oldest first (just `turn` when it had no chain). */
  attempts: TurnRecord[];
  session: Pick<SessionSummary, 'id' | 'title'>;
  chain: RetryChainRecord | null;
  decisions: RetryDecisionRecord[];
}

/**
 * The conversation as it stands, turns in order: a turn that starts a branch (branchFrom set)
 * replaces the turns from that seq on. Pure; the chat, the resume context and regenerate use it.
 */
export function activePath<T extends Pick<TurnRecord, 'seq' | 'branchFrom'>>(turns: readonly T[]): T[] {
  const path: T[] = [];
  for (const turn of [...turns].sort((a, b) => a.seq - b.seq)) {
    const from = turn.branchFrom;
    if (typeof from === 'number') {
      const cut = path.findIndex((t) => t.seq >= from);
      if (cut >= 0) path.length = cut;
    }
    path.push(turn);
  }
  return path;
}

/** A turn that has other versions: the fork it hangs from, where it stands among them, and their seqs. */
export interface BranchVersions {
  /** The seq of the turn the versions follow (0: the start of the conversation). */
  fork: number;
  /** 0-based, oldest first. */
  index: number;
  count: number;
  seqs: number[];
}

/** The versions shown: at a fork (by its seq, 0 for the start) the seq of the version chosen. */
export type BranchChoices = Readonly<Record<number, number>>;

export interface BranchPath<T> {
  path: T[];
  /** By seq, for each turn on the path that has other versions. */
  versions: Map<number, BranchVersions>;
  /** Every fork shows its newest version (the path is activePath's). */
  isLatest: boolean;
}

/**
 * The conversation as a tree (docs/architecture.md, "Branches"): a turn follows the turn before it
 * on the path as it stood when it was stored, so the versions at a fork are the turns that follow
 * the same turn. The path takes the chosen version at each fork and the newest elsewhere; with no
 * choices it is activePath()'s (a newer version always cut the older one off the path).
 */
export function branchPath<T extends Pick<TurnRecord, 'seq' | 'branchFrom'>>(
  turns: readonly T[],
  choices: BranchChoices = {},
): BranchPath<T> {
  const children = new Map<number, T[]>();
  const running: T[] = [];
  for (const turn of [...turns].sort((a, b) => a.seq - b.seq)) {
    const from = turn.branchFrom;
    if (typeof from === 'number') {
      const cut = running.findIndex((t) => t.seq >= from);
      if (cut >= 0) running.length = cut;
    }
    const parent = running.at(-1)?.seq ?? 0;
    children.set(parent, [...(children.get(parent) ?? []), turn]);
    running.push(turn);
  }
  const result: BranchPath<T> = { path: [], versions: new Map(), isLatest: true };
  for (let kids = children.get(0), fork = 0; kids; kids = children.get(fork)) {
    const chosen = kids.findIndex((t) => t.seq === choices[fork]);
    const index = chosen >= 0 ? chosen : kids.length - 1;
    const turn = kids[index];
    if (kids.length > 1)
      result.versions.set(turn.seq, { fork, index, count: kids.length, seqs: kids.map((t) => t.seq) });
    if (index !== kids.length - 1) result.isLatest = false;
    result.path.push(turn);
    fork = turn.seq;
  }
  return result;
}

/** How long a session title made from its first message may be, in characters (ellipsis included). */
export const TITLE_MAX_CHARS = 60;

/**
 * A title from a message: one line, cut at the last word that fits (CJK text, which has no spaces,
 * is cut at the limit), with an ellipsis when something was cut.
 */
export function titleFromText(text: string, maxChars = TITLE_MAX_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  if (chars.length <= maxChars) return line;
  const head = chars.slice(0, maxChars - 1).join('');
  const space = head.lastIndexOf(' ');
  // Cut at a space only when it keeps most of the room (a long URL should not leave one word).
  const cut = space >= (maxChars * 2) / 3 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s.,;:!?、。，]+$/u, '')}…`;
}

/**
 * Search snippets mark matched words with these two control characters (they cannot occur in
 * the text the person typed), so the history view can highlight them without parsing HTML.
 */
export const SNIPPET_OPEN = '\u0002';
export const SNIPPET_CLOSE = '\u0003';

/** Split a snippet into plain and matched parts, in order. */
export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  for (const [i, chunk] of snippet.split(SNIPPET_OPEN).entries()) {
    const close = chunk.indexOf(SNIPPET_CLOSE);
    if (i === 0 || close < 0) {
      if (chunk) parts.push({ text: chunk.replaceAll(SNIPPET_CLOSE, ''), match: false });
      continue;
    }
    if (close > 0) parts.push({ text: chunk.slice(0, close), match: true });
    const rest = chunk.slice(close + 1).replaceAll(SNIPPET_CLOSE, '');
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts;
}

export interface SearchHit {
  sessionId: string;
  sessionTitle: string;
  turnId: string;
  role: ChatMessage['role'];
  /** Turn text around the match; matched words sit between SNIPPET_OPEN and SNIPPET_CLOSE. */
  snippet: string;
  createdAt: number;
}
