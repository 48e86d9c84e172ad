// What the core needs from the outside world, as interfaces: the history store, the decision
// log, the settings store and the credential store. src/main/node implements them; tests pass
// in-memory versions. The core never imports Node I/O.
import type { Agent } from '@mariozechner/pi-agent-core';
import type { ChainOutcome, ErrorCategory } from '../../shared/error-category';
import type {
  ErroredTurn,
  RetryDecisionRecord,
  SearchHit,
  SessionDetail,
  SessionSummary,
  TurnPage,
  TurnRecord,
} from '../../shared/history';
import type { ChatMessage } from '../../shared/messages';
import type { Settings } from '../../shared/settings';

export interface NewSession {
  id: string;
  title: string;
  model: string;
  provider: string;
  createdAt: number;
}

export interface NewTurn {
  sessionId: string;
  message: ChatMessage;
  errorCategory?: ErrorCategory | null;
  chainId?: string | null;
}

/** The write side of the history, used by AgentSession as turns end. Writes are synchronous and durable on return. */
export interface HistoryWriter {
  ensureSession(session: NewSession): void;
  appendTurn(turn: NewTurn): TurnRecord;
  openChain(chain: { id: string; sessionId: string; startedAt: number }): void;
  closeChain(
    chainId: string,
    end: { outcome: ChainOutcome; attempts: number; finalError: string | null; endedAt: number },
  ): void;
  linkTurnToChain(turnId: string, chainId: string): void;
  recordDecision(record: RetryDecisionRecord): void;
  /**
   * Run `writes` (calls of the methods above) as one transaction: one commit, one fsync, all or
   * nothing. The retry path writes an event's chain, link and decision this way.
   */
  batch(writes: () => void): void;
}

/** The read side, used by the host router for the history view and by resume. */
export interface HistoryReader {
  listSessions(options?: { limit?: number; offset?: number }): SessionSummary[];
  /** Every turn of a session, or with `limit` only its newest `limit` turns (hasOlderTurns says if more exist). */
  getSession(sessionId: string, limit?: number): SessionDetail | undefined;
  /** The `limit` turns (TURN_PAGE_SIZE by default) before seq `beforeSeq`, oldest first. */
  sessionTurns(sessionId: string, beforeSeq: number, limit?: number): TurnPage | undefined;
  /** A session's row as the lists show it, or undefined when there is none. */
  sessionSummary(sessionId: string): SessionSummary | undefined;
  search(query: string, limit?: number): SearchHit[];
  erroredTurns(limit?: number): ErroredTurn[];
  deleteSession(sessionId: string): boolean;
  exportSession(
    sessionId: string,
    format: 'json' | 'markdown',
  ): { filename: string; mimeType: string; content: string } | undefined;
  /** The runtime context of a session as the retry controller would have left it: errored assistant turns removed (aborted ones stay, as they do at run time). */
  loadContext(sessionId: string): ChatMessage[];
}

export type HistoryStore = HistoryWriter & HistoryReader;

/** The JSON-lines decision log (docs/retry-policy.md, "The observability record"); history keeps the same. */
export interface DecisionLogSink {
  write(record: RetryDecisionRecord): void;
}

export interface SettingsStore {
  get(): Settings;
  /** Validate and persist a patch; throws an Error naming the bad field, keeping the old value. */
  update(patch: unknown): Settings;
  subscribe(listener: (settings: Settings) => void): () => void;
}

export interface Credential {
  id: string;
  apiKey: string;
}

export interface UsageLimitResult {
  /** True when another credential (or fallback) is now active: retry at once. */
  switched: boolean;
  /** When no credential is free: epoch ms when the earliest one frees up. */
  earliestFreeAt: number | null;
}

export interface CredentialStore {
  /** The credential to use now for a provider (the first one not blocked), or undefined. */
  activeCredential(provider: string, sessionId?: string): Credential | undefined;
  markUsageLimitReached(provider: string, sessionId: string, options: { retryAfterMs?: number }): UsageLimitResult;
}

/**
 * The part of pi-agent-core's Agent that the session and compaction use. The Agent fits it, and so
 * does DeferredAgent (deferred-agent.ts), which builds the Agent on first use.
 */
export type AgentPort = Pick<
  Agent,
  | 'state'
  | 'steeringMode'
  | 'followUpMode'
  | 'subscribe'
  | 'prompt'
  | 'continue'
  | 'abort'
  | 'waitForIdle'
  | 'reset'
  | 'getApiKey'
  | 'streamFn'
>;

export interface Clock {
  now(): number;
}
