// The SessionEvent union: everything the main process tells its clients (renderer over IPC or
// WebSocket, RPC stdout, extensions, the history store). The agent events and the retry and
// compaction events keep pi's names and fields exactly; Resolute's own additions come last.
import type { UpdateStatus } from './updates';
import type { AttachmentUpload } from './attachments';
import type { ErrorCategory, ChainOutcome } from './error-category';
import type { RetryChainRecord, RetryDecisionRecord, SessionSummary, TurnRecord } from './history';
import type { ChatMessage } from './messages';
import type { NoticeText } from './notice-params';
import type { McpServerStatus } from './mcp-values';
import type { ModelRef, Settings } from './settings';
import type { ThinkingLevelSetting } from './settings-values';
import type { ApprovalChoice, ApprovalRequest } from './tools';
import type { ChatBudget, SpendingCapChoice, SpendingCapRequest } from './spending-cap';

/**
 * The retry a chain is waiting for: the fields of its auto_retry_start event, or — while the
 * chain is paused because the machine is offline — of its auto_retry_paused event (`offline`).
 */
export type PendingRetry = Omit<AutoRetryStartEvent, 'type'> & { offline?: boolean };

/** A chain cut by a quit or a crash that the person can continue (docs/retry-policy.md, "Resume after a restart"). */
export interface InterruptedRetry {
  chainId: string;
  /** The retry that was waiting (1-based), continued by "Retry now". */
  attempt: number;
  /** The row's retry budget, as the banner shows it. */
  maxAttempts: number;
  category: ErrorCategory;
  errorMessage: string;
}

/**
 * A retry to run at a clock time (docs/retry-policy.md, "Scheduled retries"): a schedule a quit or a
 * crash cut, continued at the next start, or a chain that stopped for a wait above the maximum
 * delay, scheduled by "Retry at …".
 */
export interface ScheduledRetry extends InterruptedRetry {
  /** Epoch ms the retry goes at; at once when it has passed. */
  retryAt: number;
}

/** A prompt held back until a provider's rate limit resets (docs/retry-policy.md, "Rate-limit pacing"). */
export interface PacingWait {
  provider: string;
  model: string;
  /** The held prompt, so that a Stop during the wait loses nothing. */
  text: string;
  /** Its files as they were attached (absent: none), given back with the text on a Stop. */
  attachments?: AttachmentUpload[];
  /** Epoch ms when the limit resets and the prompt goes out. */
  until: number;
  waitMs: number;
  /** A usage limit (a plan's window) holds it, not a per-minute rate limit; absent: a rate limit. */
  limit?: 'usage';
}

/**
 * What a chat is doing now (docs/architecture.md, "Chats side by side"): each chat keeps its own
 * agent and retry chain, and the sidebar shows this for every chat that works or wants the person.
 */
export type SessionActivityState =
  'streaming' | 'retrying' | 'offline' | 'scheduled' | 'approval' | 'pacing' | 'compacting' | 'idle';

export interface SessionActivity {
  sessionId: string;
  /** The chat's title; its first words before the history has it. */
  title: string;
  state: SessionActivityState;
  /** Epoch ms the retry (retrying, scheduled) or the held prompt (pacing) goes out. */
  until?: number;
  /** What happened in a chat that is not shown and that the person has not seen yet. */
  attention?: 'reply' | 'failed' | 'approval';
}

export interface ModelInfo {
  provider: string;
  id: string;
  label: string;
  isSimulator: boolean;
  /** The model's context window, tokens (the context meter's whole); absent until its catalogue is loaded. */
  contextWindow?: number;
  /** The model thinks on request (pi-ai's `reasoning` flag): the chat header offers the thinking control. */
  reasoning?: boolean;
  /** The thinking level its requests use now (docs/thinking-and-context.md). */
  thinkingLevel?: ThinkingLevelSetting;
  /** The model takes images (pi-ai's Model.input); absent where that is not known without the catalogue. */
  acceptsImages?: boolean;
}

/**
 * Everything a client needs to show the current session, sent on connect (session.getState) and
 * whenever the session is replaced (the session_changed event). Settings, auto-retry included,
 * are not part of it: they arrive as settings (settings.get, settings_changed).
 */
export interface SessionSnapshot {
  sessionId: string;
  title: string;
  /** The persisted transcript of this session, errored turns included (what the chat shows). */
  turns: TurnRecord[];
  /** The session's stored retry chains, so errored turns show their outcome after a resume. */
  chains: RetryChainRecord[];
  /** The session's stored retry decisions (each errored turn's "what the app decided"). */
  decisions: RetryDecisionRecord[];
  /**
   * `turns` is the newest page only (TURN_PAGE_SIZE in src/shared/history.ts), with the chains and
   * decisions it needs; when this is true, older turns come from history.turns.
   */
  hasOlderTurns: boolean;
  isStreaming: boolean;
  streamingMessage: ChatMessage | null;
  isRetrying: boolean;
  retryAttempt: number;
  pendingRetry: PendingRetry | null;
  model: ModelInfo;
  /** The folder this session's tools work in (docs/tools.md, "The workspace"). */
  workspace: string;
  /** Tool calls waiting for the person's answer. */
  pendingApprovals: ApprovalRequest[];
  /** A retry chain of this session cut by a quit or a crash, offered to continue; else null. */
  interruptedRetry: InterruptedRetry | null;
  /** A prompt waiting for a rate limit to reset; else null. */
  pacing: PacingWait | null;
  /** The run waits before a request that would pass the spending cap; else null (absent from older main processes). */
  spendingCap?: SpendingCapRequest | null;
  /** This chat's own spending cap (its context meter, a Raise); null = agent.budget's. Absent from older main processes. */
  budget?: ChatBudget | null;
  /** A local server working on the prompt before its first word, for a window that was not listening; else null. */
  promptWait?: PromptWait | null;
  /** Every chat that works or wants the person, this one included (the sessions_activity event's list). */
  activity: SessionActivity[];
  /**
   * The tool calls running now, each with the newest output it streamed: what a window that was
   * not listening when they started shows on their cards. Absent from older main processes.
   */
  liveTools?: LiveToolCall[];
}

/** A running tool call as its tool_execution_start said it, and its newest tool_execution_update's partial result. */
export interface LiveToolCall {
  toolCallId: string;
  toolName: string;
  args: unknown;
  summary?: string;
  /** Null until the call has streamed any output. */
  partialResult: unknown;
}

export interface AssistantDelta {
  type: string;
  contentIndex?: number;
  delta?: string;
}

export type AgentLoopEvent =
  | { type: 'agent_start' }
  /** `messages`: the run's whole context, as pi's RPC protocol has it; empty in what the app's windows get (router/event-hub.ts). */
  | { type: 'agent_end'; messages: ChatMessage[] }
  | { type: 'turn_start' }
  | { type: 'turn_end'; message: ChatMessage; toolResults: ChatMessage[] }
  | { type: 'message_start'; message: ChatMessage }
  | { type: 'message_update'; message: ChatMessage; assistantMessageEvent: AssistantDelta }
  | { type: 'message_end'; message: ChatMessage }
  /** `summary`: the line the card is known by, from the tool's definition (absent in pi's RPC events). */
  | { type: 'tool_execution_start'; toolCallId: string; toolName: string; args: unknown; summary?: string }
  | { type: 'tool_execution_update'; toolCallId: string; toolName: string; args: unknown; partialResult: unknown }
  | { type: 'tool_execution_end'; toolCallId: string; toolName: string; result: unknown; isError: boolean };

export interface AutoRetryStartEvent {
  type: 'auto_retry_start';
  attempt: number;
  /** The row's retry budget (retries, not attempts), so the banner reads "(1/3)". */
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
  category: ErrorCategory;
  /** Epoch ms when the retry fires; the banner counts down to it. */
  retryAt: number;
  chainId: string;
  /** A usage limit switched the session to the next model of the fallback list. */
  switchedModel?: { from: ModelRef; to: ModelRef };
  /** This retry continues a chain interrupted by a quit or a crash. */
  resumed?: boolean;
  /** The retry waits for the time the provider named, above retry.maxDelayMs (up to 24 h). */
  scheduled?: boolean;
}

/** The machine is offline: the chain waits for the network instead of counting attempts. */
export interface AutoRetryPausedEvent {
  type: 'auto_retry_paused';
  reason: 'offline';
  /** The retry that runs when the network returns (no attempt is counted while offline). */
  attempt: number;
  maxAttempts: number;
  errorMessage: string;
  category: ErrorCategory;
  chainId: string;
}

export interface AutoRetryEndEvent {
  type: 'auto_retry_end';
  success: boolean;
  attempt: number;
  finalError?: string;
  outcome: ChainOutcome;
  chainId: string;
}

export type RetryEvent = AutoRetryStartEvent | AutoRetryEndEvent | AutoRetryPausedEvent;

export type PacingEvent =
  | ({ type: 'rate_limit_wait' } & PacingWait)
  | { type: 'rate_limit_wait_end'; provider: string; outcome: 'reset' | 'sent_anyway' | 'cancelled' };

/**
 * A local server works on the prompt before its first word (docs/retry-policy.md, "Two clocks"):
 * the chat shows "Processing the prompt… 45 s" from `startedAt`, with the share where the server
 * reports it (llama.cpp's prompt_progress), until the first word or the request's end.
 */
/** Since when a local server processes the prompt, and how far it says it is (llama.cpp), tokens. */
export interface PromptWait {
  startedAt: number;
  processed?: number;
  total?: number;
}

export type PromptProcessingEvent =
  | { type: 'prompt_processing_start'; startedAt: number }
  | { type: 'prompt_processing_progress'; processed: number; total: number }
  | { type: 'prompt_processing_end' };

export type CompactionEvent =
  | { type: 'auto_compaction_start'; reason: 'overflow' | 'manual' }
  | {
      type: 'auto_compaction_end';
      result?: { summary: string; tokensBefore: number };
      aborted: boolean;
      willRetry: boolean;
      errorMessage?: string;
    };

/** A session's row in the history changed: `session` is the row as lists show it now, null once deleted. */
export interface HistoryChangedEvent {
  type: 'history_changed';
  sessionId: string;
  session: SessionSummary | null;
}

/** A tool call waits for the person (docs/tools.md, "Approvals"); answered by session.approveTool. */
export type ApprovalEvent =
  | { type: 'tool_approval_request'; request: ApprovalRequest }
  | { type: 'tool_approval_end'; id: string; choice: ApprovalChoice };

/**
 * A retry chain's row was closed in the history: every chain, including the one-off chain of a
 * turn that was never retried (auto-retry off, a category that stops at once), so clients know
 * each errored turn's outcome as soon as it is stored.
 */
export interface RetryChainClosedEvent {
  type: 'retry_chain_closed';
  sessionId: string;
  chainId: string;
  outcome: ChainOutcome;
  /** Retries started in the chain (as stored). */
  attempts: number;
  finalError: string | null;
}

/** The run waits at the spending cap (docs/tools.md, "The spending cap"); answered by session.answerSpendingCap. */
export type SpendingCapEvent =
  | { type: 'spending_cap_request'; request: SpendingCapRequest }
  | { type: 'spending_cap_end'; id: string; choice: SpendingCapChoice }
  /** The chat's own cap changed (set from its meter, or raised); null = agent.budget's again. */
  | { type: 'chat_budget_changed'; sessionId: string; budget: ChatBudget | null };

export type ResoluteEvent =
  | ApprovalEvent
  | SpendingCapEvent
  | { type: 'turn_persisted'; turn: TurnRecord }
  | RetryChainClosedEvent
  | { type: 'retry_decision'; decision: RetryDecisionRecord }
  | { type: 'session_changed'; snapshot: SessionSnapshot }
  | { type: 'settings_changed'; settings: Settings }
  /** A chat began or stopped working, or wants the person: the whole list (SessionSnapshot.activity). */
  | { type: 'sessions_activity'; sessions: SessionActivity[] }
  /** The MCP servers' statuses changed (starting, connected, failed, disabled): the whole list. */
  | { type: 'mcp_status'; servers: McpServerStatus[] }
  /** The desktop updater's state changed (checking, downloading, ready to install at quit). */
  | { type: 'update_status'; status: UpdateStatus }
  /** The simulator's fault script was used up (every later request answers normally), or armed again. */
  | { type: 'simulator_script'; usedUp: boolean }
  | HistoryChangedEvent
  /** The model the session talks to changed (a fallback switch, a new first choice). */
  | { type: 'model_changed'; model: ModelInfo }
  /**
   * Something to tell the person. `id` is set for a start-up notice raised once clients listen (the
   * history's background integrity check): it is also in app.info's notices, so a window shows each id once.
   * `code`/`params`, where set, let a window show it in the person's language (notices.ts).
   */
  | ({ type: 'notice'; level: 'info' | 'warning' | 'error'; id?: string } & NoticeText);

export type SessionEvent =
  AgentLoopEvent | RetryEvent | PacingEvent | PromptProcessingEvent | CompactionEvent | ResoluteEvent;
export type SessionEventType = SessionEvent['type'];
export type SessionEventListener = (event: SessionEvent) => void;
