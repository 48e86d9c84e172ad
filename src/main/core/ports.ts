// What the core needs from the outside world, as interfaces: the history writer and reader, the
// decision log, the sandbox audit log, the tools' runtime (files, ripgrep, bubblewrap), the settings
// store, the credential store, the network check of the offline pause, the agent (pi-agent-core's
// Agent or the DeferredAgent) and the clock. src/main/node implements them; tests pass in-memory
// versions. The core never imports Node I/O.
import type { ProjectInstructions } from './session/system-prompt';
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
import type { ChatMessage, ImageBlock } from '../../shared/messages';
import type { NoticeText } from '../../shared/notice-params';
import type { ModelRef, Settings } from '../../shared/settings';
import type { ApprovalRequest, SandboxAuditRecord, ToolResultDetails } from '../../shared/tools';
import type { FileChange } from '../../shared/file-history';
import type { BudgetSpent, ChatBudget, SpendingCapRequest } from '../../shared/spending-cap';
import type { ToolRegistry } from './tools/tool-registry';

export interface NewSession {
  id: string;
  title: string;
  model: string;
  provider: string;
  createdAt: number;
  /** The folder the session's tools work in. */
  workspace?: string;
}

export interface NewTurn {
  sessionId: string;
  message: ChatMessage;
  errorCategory?: ErrorCategory | null;
  chainId?: string | null;
  /** What the attempt cost in USD; null (or absent) when the model's price is unknown. */
  costUsd?: number | null;
  /** The first turn of a branch: the seq of the first turn it replaces (docs/architecture.md, "Branches"). */
  branchFrom?: number | null;
  /** A tool result's file changes, stored in the turn's own transaction (docs/file-history.md). */
  fileChanges?: (RecordedFiles & { toolCallId: string; toolName: string }) | null;
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
  /** A sandbox_security refusal (docs/tools.md, "Audit"); written before the turn is ended. */
  recordAudit(record: SandboxAuditRecord): void;
  setSessionWorkspace(sessionId: string, workspace: string): void;
  /** An interrupted chain is continued: it is pending again until it ends anew. */
  reopenChain(chainId: string): void;
  /**
   * The time a chain's scheduled retry goes at, or null once it went (docs/retry-policy.md,
   * "Scheduled retries"); a close other than `interrupted` clears it too.
   */
  scheduleChain(chainId: string, at: number | null): void;
  /**
   * Run `writes` (calls of the methods above) as one transaction: one commit, one fsync, all or
   * nothing. The retry path writes an event's chain, link and decision this way.
   */
  batch(writes: () => void): void;
}

/** The read side, used by the domains that answer the history and session commands (the history view, resume, edits). */
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
  /** Give a session a title of the person's; false when there is no such session. */
  renameSession(sessionId: string, title: string): boolean;
  exportSession(
    sessionId: string,
    format: 'json' | 'markdown',
  ): { filename: string; mimeType: string; content: string } | undefined;
  /**
   * The runtime context of a session as the retry controller would have left it: the active path
   * (replaced branches left out), errored assistant turns removed (aborted ones stay, as they do at
   * run time); with `beforeSeq`, only the turns before that one (to rewind for an edit or regenerate).
   */
  loadContext(sessionId: string, options?: { beforeSeq?: number }): ChatMessage[];
}

export type HistoryStore = HistoryWriter & HistoryReader;

/** The JSON-lines decision log (docs/retry-policy.md, "The observability record"); history keeps the same. */
export interface DecisionLogSink {
  write(record: RetryDecisionRecord): void;
}

/** logs/sandbox-audit.jsonl: written synchronously, before anything else happens. */
export interface AuditSink {
  write(record: SandboxAuditRecord): void;
}

/** A tool call as it starts running, for the journal of calls in flight. */
export interface ToolRunStart {
  sessionId: string;
  toolCallId: string;
  toolName: string;
  /** The line its card is known by. */
  summary?: string;
  /** Epoch ms. */
  startedAt: number;
}

/**
 * The calls running now, kept in the history so a quit or a crash leaves their trace: the next
 * start gives each the result "interrupted — not run again" with what it printed (docs/tools.md,
 * "Runs cut by a quit or a crash"). The node side throttles and caps its writes.
 */
export interface ToolRunJournal {
  began(run: ToolRunStart): void;
  /** What the call has printed so far (the whole tail, not a piece). */
  output(toolCallId: string, text: string): void;
  /** Its result is stored: nothing is left to recover. */
  settled(toolCallId: string): void;
  /** An approval asked: kept until answered, so a restart asks it again (docs/tools.md, "Approvals"). */
  asked(sessionId: string, request: ApprovalRequest): void;
  answered(requestId: string): void;
}

/** What one tool call may use besides its arguments. */
export interface ToolCallContext {
  toolCallId: string;
  /** The session's workspace, opened for the call (created on first use when it is the default). */
  workspace: string;
  signal?: AbortSignal;
  /** Partial output so far (bash), for tool_execution_update. */
  onUpdate?: (text: string) => void;
  settings: Settings['tools'];
  /** What the call changed in the workspace, for the file history (docs/file-history.md); may be called more than once. */
  recordFiles?: (recorded: RecordedFiles) => void;
}

/**
 * What one tool call changed in the workspace (docs/file-history.md): the changes, the contents
 * they refer to that are not stored yet (write and edit hand them here; bash's snapshot stored its
 * own), and what could not be recorded, said on the turn.
 */
export interface RecordedFiles {
  /** The workspace's real path, which the paths are relative to. */
  workspace: string;
  changes: FileChange[];
  contents: { hash: string; bytes: Uint8Array }[];
  notRecorded: string[];
}

/** A finished call: the text the model sees; isError marks an ordinary failure (exit code ≠ 0). */
export interface ToolOutcome {
  text: string;
  details: ToolResultDetails;
  isError: boolean;
  /** Images the tool returned (an MCP server's; read on an image file, node/tools/read-image.ts): they reach the model and the card as image content. */
  images?: readonly { type?: 'image'; data: string; mimeType: string; file?: ImageBlock['file'] }[];
}

/**
 * The tools' file-system and process side (src/main/node/tools): the registry of tools, how a
 * session's workspace is opened for a call, and the facts the system prompt states.
 */
export interface ToolRuntime {
  readonly registry: ToolRegistry;
  /** The workspace ready for a call (the default one is created on first use); throws when it is gone. */
  openWorkspace(workspace: string): string;
  /** Why bash is off on this system (Windows), coded for the window's language; null when it is offered. */
  readonly bashUnavailable: NoticeText | null;
  /** The workspace's AGENTS.md (or CLAUDE.md) for the system prompt; null when it has none. */
  projectInstructions?(workspace: string): ProjectInstructions | null;
  /** The system the agent runs on, as the system prompt names it ("Linux (x64)"). */
  readonly platform?: string;
}

/** What the spending cap reads and writes of a chat (docs/tools.md, "The spending cap"); the history keeps both. */
export interface BudgetPort {
  /** What the chat's stored attempts used, failed ones included. */
  spent(sessionId: string): BudgetSpent;
  /** What every chat's attempts used since `since` (epoch ms), for the day cap; absent = no day cap. */
  spentSince?(since: number): BudgetSpent;
  /** The chat's own cap, or null for the `agent.budget` setting's. */
  chatBudget(sessionId: string): ChatBudget | null;
  setChatBudget(sessionId: string, budget: ChatBudget | null): void;
  /** Where the cap's question is kept until answered, so a restart asks it again; absent = not kept. */
  questions?: {
    asked(request: SpendingCapRequest): void;
    answered(sessionId: string): void;
  };
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
  /** The switch was to the next model of the fallback list. */
  model?: { from: ModelRef; to: ModelRef };
  /** No key and no model of the fallback list is left: the chain ends with this message. */
  exhausted?: string;
}

export interface CredentialStore {
  /** The credential to use now for a provider (the first one not blocked), or undefined. */
  activeCredential(provider: string, sessionId?: string, model?: string): Credential | undefined;
  /**
   * Block the key in use for `model` (every model when absent) and switch to another usable key.
   * Blocks are per model: some providers limit each model on its own, and a model of the fallback
   * list may still be usable with the same key.
   */
  markUsageLimitReached(
    provider: string,
    sessionId: string,
    options: { retryAfterMs?: number; model?: string },
  ): UsageLimitResult;
}

/** Can the provider at this base URL be reached? Resolves false when offline; never rejects. */
export type NetworkCheck = (baseUrl: string) => Promise<boolean>;

/**
 * The part of pi-agent-core's Agent that the session, its tools (which install their hooks and wrap
 * the stream function) and compaction use. The Agent fits it, and so does DeferredAgent
 * (llm/deferred-agent.ts), which builds the Agent on first use with whatever was set on it until then.
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
  | 'beforeToolCall'
  | 'afterToolCall'
  | 'toolExecution'
>;

export interface Clock {
  now(): number;
}
