// The renderer store's shape: typed slices (session/chat, retry banner, settings, history, ui)
// and the empty state the app starts from. Pure data — the reducer in apply-session-event.ts and
// the actions in actions.ts are the only writers.
import type { ChatBudget, SpendingCapRequest } from '../../../shared/spending-cap';
import type { UpdateStatus } from '../../../shared/updates';
import type { SessionSummary, RetryDecisionRecord, TurnRecord } from '../../../shared/history';
import type { ChatMessage } from '../../../shared/messages';
import type {
  InterruptedRetry,
  ModelInfo,
  PacingWait,
  PendingRetry,
  PromptWait,
  SessionActivity,
} from '../../../shared/events';
import type { ChainOutcome, ErrorCategory } from '../../../shared/error-category';
import type { ModelRef, Settings } from '../../../shared/settings';
import type { AppInfo, ProviderInfo } from '../../../shared/contract';
import type { McpServerStatus } from '../../../shared/mcp-values';
import type { LinkPrompt } from '../links/open-link';
import type { ApprovalRequest, ToolResultDetails } from '../../../shared/tools';
import type { NoticeText } from '../../../shared/notice-params';
import type { AttachmentUpload } from '../../../shared/attachments';
import type { StoreApi } from 'zustand/vanilla';

/** What the chat knows about one retry chain (from auto_retry_* events or the history store). */
export interface ChainView {
  outcome: ChainOutcome;
  /** Retries started so far (the last attempt number the main process reported). */
  attempts: number;
  finalError: string | null;
}

/** A tool call as its events tell it, until its result is stored (then the turn tells it). */
export interface LiveToolRun {
  toolName: string;
  args: Record<string, unknown>;
  /** The output so far (bash streams it), or the result's text once done. */
  output: string;
  status: 'running' | 'done' | 'error';
  details: ToolResultDetails;
}

/** A compaction seen in this session: the chat shows a divider with its summary (live only; not stored). */
export interface CompactionView {
  /** The seq of the last turn before it: the divider goes after that turn. */
  afterSeq: number;
  status: 'running' | 'done' | 'failed';
  summary: string | null;
  error: string | null;
}

export interface SessionSlice {
  sessionId: string | null;
  title: string;
  /** The persisted transcript, errored turns included (what the chat renders): the newest page, then older pages as they are fetched. */
  turns: TurnRecord[];
  /** Older turns than `turns[0]` are stored: the chat fetches them (loadOlderTurns) as the reader scrolls up. */
  hasOlderTurns: boolean;
  /** Messages that have started or ended but whose turn_persisted has not arrived yet. */
  pendingMessages: ChatMessage[];
  streamingMessage: ChatMessage | null;
  isStreaming: boolean;
  isRetrying: boolean;
  retryAttempt: number;
  isCompacting: boolean;
  activeToolName: string | null;
  model: ModelInfo | null;
  chains: Record<string, ChainView>;
  decisions: RetryDecisionRecord[];
  /** The folder this session's tools work in. */
  workspace: string;
  /** Tool calls waiting for the person's answer, oldest first. */
  pendingApprovals: ApprovalRequest[];
  /** Live tool calls by toolCallId. */
  toolRuns: Record<string, LiveToolRun>;
  /** A chain a quit or a crash interrupted, offered to continue (the interrupted-turn card). */
  interruptedRetry: InterruptedRetry | null;
  /** A prompt held until a rate limit resets (the pacing notice). */
  pacing: PacingWait | null;
  /** A local server works on the prompt before its first word ("Processing the prompt… 45 s"). */
  promptWait: PromptWaitView | null;
  /** The run waits before a request that would pass the spending cap (the cap's question). */
  spendingCap: SpendingCapRequest | null;
  /** This chat's own spending cap; null = agent.budget's. */
  budget: ChatBudget | null;
  compactions: CompactionView[];
}

/** Since when a local server processes the prompt, and how far it says it is (llama.cpp). */
export type PromptWaitView = PromptWait;

/** A switch of model in a chain; `category` is what it was for (usage_limit, or an outage's failover). */
export type ModelSwitch = { from: ModelRef; to: ModelRef; category?: ErrorCategory };

export type RetryBannerState =
  | ({ kind: 'pending' } & PendingRetry)
  | {
      kind: 'failed';
      /** Retries made in the chain: the same count the chain's card shows (docs/retry-policy.md, "Counting"). */
      retries: number;
      outcome: ChainOutcome;
      finalError: string;
      chainId: string;
    }
  /** The chain recovered on a fallback model: said until the next prompt or a dismiss. */
  | ({ kind: 'switched' } & ModelSwitch);

export interface RetrySlice {
  banner: RetryBannerState | null;
  /** The model switch of the chain running now, kept for the banner once it recovers. */
  switchedModel: ModelSwitch | null;
}

export interface SettingsSlice {
  values: Settings | null;
  /** The main process's refusal message per field path, e.g. "retry.maxRetries". */
  fieldErrors: Record<string, string>;
  providers: ProviderInfo[];
  /** The MCP servers' statuses (app.info on connect, then mcp_status events). */
  mcpServers: McpServerStatus[];
  /** The version and the updater's state (app.info on connect, then update_status events); null before. */
  updates: UpdateStatus | null;
  /** The simulator sent every step of its fault script (app.info, then simulator_script events). */
  simulatorScriptUsedUp: boolean;
}

export interface HistorySlice {
  /** Newest first, at most SESSION_LIST_LIMIT; listed on connect, then kept by history_changed. */
  sessions: SessionSummary[];
  /** Bumped by every history_changed event; views that show history data refetch on change. */
  revision: number;
  /** What each chat that works or wants the person is doing (the snapshot, then sessions_activity). */
  activity: SessionActivity[];
}

/** How many sessions the sidebar and the history table keep. */
export const SESSION_LIST_LIMIT = 200;

export type ViewName = 'chat' | 'settings' | 'history';
/** `unauthorized`: the browser-mode server refused the page's launch token (the page says what to do). */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'unauthorized';

/** `code`/`params` (from the main process) are translated when shown; `message` is the fallback. */
export interface Notice extends NoticeText {
  id: number;
  level: 'info' | 'warning' | 'error';
}

/** Where focus goes next (a component with that target takes it): never left on the page body. */
export type FocusTarget =
  | 'composer'
  /** The first approval card waiting in the chat: a chat opened again while it waits. */
  | 'approval'
  | 'history-search'
  | 'history-detail'
  | 'session-list'
  | 'model-picker'
  /** The command palette: taking it opens it. */
  | 'palette'
  /** The palette opened by "/" typed at the start of an empty message: closed without a command, it types "/…" back there. */
  | 'palette-typed'
  /** The composer's file input: taking it opens the file picker. */
  | 'attach-picker'
  /** The sidebar: taking it shows or hides it (folded over the pane in a narrow window). */
  | 'sidebar'
  /** A Settings section's heading (SETTINGS_SECTIONS' ids). */
  | `settings-${string}`;

export interface UiSlice {
  view: ViewName;
  /** A prompt given back to the composer (a held prompt stopped before it was sent), its files with it; `n` tells returns apart. */
  returnedDraft: { text: string; attachments?: AttachmentUpload[]; n: number } | null;
  connection: ConnectionState;
  notices: Notice[];
  nextNoticeId: number;
  /** Which host the page runs in (app.info), once known: exports save differently. */
  host: AppInfo['host'] | null;
  focus: { target: FocusTarget; n: number } | null;
  /** Bumped when the person asks for another chat (New chat, a sidebar row), before it is shown. */
  openings: number;
  /** Bumped by every settings change the main process accepted ("Saved"). */
  savedCount: number;
  /** The provider whose settings to show (the Authentication card's "Check your API key"). */
  settingsProvider: string | null;
  /** A resolute:// link's question or refusal on screen (links/open-link.ts); null when none. */
  link: LinkPrompt | null;
}

export interface AppState {
  session: SessionSlice;
  retry: RetrySlice;
  settings: SettingsSlice;
  history: HistorySlice;
  ui: UiSlice;
}

export const MAX_NOTICES = 5;

export function initialState(): AppState {
  return {
    session: {
      sessionId: null,
      title: '',
      turns: [],
      hasOlderTurns: false,
      pendingMessages: [],
      streamingMessage: null,
      isStreaming: false,
      isRetrying: false,
      retryAttempt: 0,
      isCompacting: false,
      activeToolName: null,
      model: null,
      chains: {},
      decisions: [],
      workspace: '',
      pendingApprovals: [],
      toolRuns: {},
      interruptedRetry: null,
      pacing: null,
      promptWait: null,
      spendingCap: null,
      budget: null,
      compactions: [],
    },
    retry: { banner: null, switchedModel: null },
    settings: {
      values: null,
      fieldErrors: {},
      providers: [],
      mcpServers: [],
      updates: null,
      simulatorScriptUsedUp: false,
    },
    history: { sessions: [], revision: 0, activity: [] },
    ui: {
      view: 'chat',
      returnedDraft: null,
      connection: 'connecting',
      notices: [],
      nextNoticeId: 1,
      host: null,
      focus: null,
      openings: 0,
      savedCount: 0,
      settingsProvider: null,
      link: null,
    },
  };
}

/** A turn streams, retries, waits for a retry or a rate limit, or compacts: the composer sends nothing new now. */
export function isTurnRunning(state: AppState): boolean {
  const { session, retry } = state;
  return (
    session.isStreaming ||
    session.isRetrying ||
    session.isCompacting ||
    session.pacing !== null ||
    retry.banner?.kind === 'pending'
  );
}

/** Append a notice, keeping only the newest MAX_NOTICES so a noisy main process cannot flood the UI. */
export function addNotice(state: AppState, level: Notice['level'], text: string | NoticeText): AppState {
  const notice: Notice = { id: state.ui.nextNoticeId, level, ...(typeof text === 'string' ? { message: text } : text) };
  const notices = [...state.ui.notices, notice].slice(-MAX_NOTICES);
  return { ...state, ui: { ...state.ui, notices, nextNoticeId: notice.id + 1 } };
}

/** The one store of this state (app-store.ts makes it; the actions and the dispatcher write it). */
export type AppStore = StoreApi<AppState>;
