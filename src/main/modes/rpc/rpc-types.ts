// The RPC protocol as types (docs/rpc-protocol.md): commands read from stdin and responses written
// to stdout, one JSON object per line, tagged by `type` with an optional `id` echoed back for
// correlation. Shapes follow the pi coding agent's RPC protocol so its clients can drive Resolute;
// get_state adds autoRetryEnabled and the retry fields. rpc-mode.ts validates against these;
// the tests' RpcClient (test/fixtures/rpc-client.ts) sends them.
import type { ThinkingLevel } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import type { PendingRetry, SessionEvent } from '../../../shared/events';
import type { ChatMessage, ImageBlock } from '../../../shared/messages';
import type { ConflictChoice, SessionFileChanges, UndoOutcome, UndoScope } from '../../../shared/file-history';
import type { SessionStats } from '../../core/session/session-stats';

/** pi uses strings; numbers are accepted too and echoed back unchanged. */
export type RpcId = string | number;

type Cmd<T extends string, Fields = object> = { id?: RpcId; type: T } & Fields;

export type RpcCommand =
  // Prompting. `images` and `streamingBehavior` are pi fields; images go to the model (refused for a
  // text-only one); Resolute runs one turn at a time, so a prompt while busy is an error whatever
  // streamingBehavior says.
  | Cmd<'prompt', { message: string; images?: ImageBlock[]; streamingBehavior?: 'steer' | 'followUp' }>
  | Cmd<'abort'>
  | Cmd<'new_session', { parentSession?: string }>
  // State
  | Cmd<'get_state'>
  | Cmd<'get_messages'>
  | Cmd<'get_session_stats'>
  | Cmd<'get_last_assistant_text'>
  // Model
  | Cmd<'set_model', { provider: string; modelId: string }>
  | Cmd<'get_available_models'>
  | Cmd<'set_thinking_level', { level: ThinkingLevel }>
  // Compaction
  | Cmd<'compact', { customInstructions?: string }>
  | Cmd<'set_auto_compaction', { enabled: boolean }>
  // Retry
  | Cmd<'set_auto_retry', { enabled: boolean }>
  | Cmd<'abort_retry'>
  // Resolute's own (docs/file-history.md): the file history; pi's clients ignore what they do not know.
  | Cmd<'get_file_changes', { sessionId?: string }>
  | Cmd<
      'undo_changes',
      {
        sessionId?: string;
        turnId: string;
        scope?: UndoScope;
        redo?: boolean;
        preview?: boolean;
        choices?: Record<string, ConflictChoice>;
      }
    >;

export type RpcCommandType = RpcCommand['type'];
export type RpcCommandOf<T extends RpcCommandType> = Extract<RpcCommand, { type: T }>;

/** pi commands Resolute knows by name but does not offer; they get a clear error response. */
export const UNSUPPORTED_PI_COMMANDS = [
  'steer',
  'follow_up',
  'cycle_model',
  'cycle_thinking_level',
  'set_steering_mode',
  'set_follow_up_mode',
  'bash',
  'abort_bash',
  'export_html',
  'switch_session',
  'fork',
  'get_fork_messages',
  'set_session_name',
  'get_commands',
] as const;

export type RpcModel = Model<Api>;

/** get_state: pi's RpcSessionState plus Resolute's retry fields. */
export interface RpcSessionState {
  model: RpcModel | null;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: 'all' | 'one-at-a-time';
  followUpMode: 'all' | 'one-at-a-time';
  /** pi's session file path. Never set: Resolute keeps sessions in its SQLite history. */
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
  // ---- Resolute additions ----
  autoRetryEnabled: boolean;
  /** A retry chain is active (waiting in backoff or running a retried request). */
  isRetrying: boolean;
  /** 0 when idle, else the attempt of the chain in progress (1-based). */
  retryAttempt: number;
  /** The backoff being waited out, as the last auto_retry_start described it. */
  pendingRetry: PendingRetry | null;
}

/** get_session_stats: pi's shape; Resolute never sets sessionFile. */
export interface RpcSessionStats extends SessionStats {
  sessionFile?: string;
}

/** compact: pi's CompactionResult without firstKeptEntryId/details (Resolute has no entry ids). */
export interface RpcCompactionResult {
  summary: string;
  tokensBefore: number;
}

/** The `data` of each successful response; `undefined` = the response carries no data (as in pi). */
export interface RpcResponseData {
  prompt: undefined;
  abort: undefined;
  new_session: { cancelled: boolean };
  get_state: RpcSessionState;
  get_messages: { messages: ChatMessage[] };
  get_session_stats: RpcSessionStats;
  get_last_assistant_text: { text: string | null };
  set_model: RpcModel;
  get_available_models: { models: RpcModel[] };
  set_thinking_level: undefined;
  compact: RpcCompactionResult;
  set_auto_compaction: undefined;
  set_auto_retry: undefined;
  abort_retry: undefined;
  get_file_changes: SessionFileChanges;
  undo_changes: UndoOutcome;
}

export type RpcSuccessResponse<T extends RpcCommandType = RpcCommandType> = {
  [K in T]: RpcResponseData[K] extends undefined
    ? { id?: RpcId; type: 'response'; command: K; success: true }
    : { id?: RpcId; type: 'response'; command: K; success: true; data: RpcResponseData[K] };
}[T];

/**
 * Any command can fail. `command` is the command's type, or "parse" when the line was not a JSON
 * object with a string `type` (as pi names it).
 */
export interface RpcErrorResponse {
  id?: RpcId;
  type: 'response';
  command: string;
  success: false;
  error: string;
}

export type RpcResponse = RpcSuccessResponse | RpcErrorResponse;

/** pi's event for a failing extension; Resolute also disables the extension. */
export interface ExtensionErrorEvent {
  type: 'extension_error';
  extensionPath: string;
  /** The event type being handled, or "load". */
  event: string;
  error: string;
}

/** pi's dialog request; Resolute sends `confirm` for a tool call waiting for approval. */
export interface RpcExtensionUIRequest {
  type: 'extension_ui_request';
  id: string;
  method: 'confirm';
  title: string;
  /** At most 4,000 characters; when longer, cut with a last line saying how much is not shown. */
  message: string;
  /** Resolute's own, only when `message` was cut: the whole text (docs/rpc-protocol.md, "Approvals"). */
  fullMessage?: string;
}

/** Everything on stdout that is not a response. */
export type RpcEvent = SessionEvent | ExtensionErrorEvent | RpcExtensionUIRequest;

/** One stdout line. */
export type RpcOutput = RpcResponse | RpcEvent;
