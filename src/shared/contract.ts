// The one typed contract between the main process and its clients: the table of every command,
// each with the zod schema of its params and the type of its result. Everything else derives from
// it: the command names, the router's handler map (src/main/node/domains/), the preload's list
// of names (put in at build time, electron.vite.config.ts) and the renderer's typed call().
// Adding a command is one entry here plus its handler (docs/architecture.md, "The contract").
import type { UpdateStatus } from './updates';
import { MCP_SERVER_NAME, type McpCatalog, type McpLogTail, type McpServerStatus } from './mcp-values';
import { z } from 'zod';
import type { ErrorCategory } from './error-category';
import type { ErroredTurn, FailureCostReport, SearchHit, SessionDetail, SessionSummary, TurnPage } from './history';
import type { SessionSnapshot } from './events';
import type { FileReview, SessionFileChanges, UndoOutcome } from './file-history';
import type { NoticeText } from './notice-params';
import { budgetSchema, modelRefSchema, settingsPatchSchema, type Settings } from './settings';
import { SPENDING_CAP_CHOICES, type ChatBudget } from './spending-cap';
import { PROVIDER_IDS, SYSTEM_PROMPT_MAX_CHARS } from './settings-values';
import { APPROVAL_CHOICES } from './tools';
import { MESSAGE_TEXT_MAX_CHARS } from './attachments';

/** A command's result, as a type only: nothing of it exists at run time. */
export interface Returns<R> {
  readonly result?: R;
}
const returns = <R>(): Returns<R> => ({});

const id = z.string().min(1, { error: 'must not be empty' }).max(200);
const limit = z.number().int().min(1).max(1000).optional();
const empty = z.object({}).strict();
const exportFormat = z.enum(['json', 'markdown']);
const mcpName = z.string().regex(MCP_SERVER_NAME, { error: 'a server name is 1–32 letters, digits, _ or -' });
// A prompt's text may be empty when files go with it (docs/attachments.md); the caps are the builder's.
const optionalText = z.string().trim().max(MESSAGE_TEXT_MAX_CHARS);
const attachmentUpload = z
  .object({ name: z.string().min(1).max(500), mimeType: z.string().max(200), data: z.string().max(40_000_000) })
  .strict();
const promptParams = z
  .object({ text: optionalText, attachments: z.array(attachmentUpload).max(100).optional() })
  .strict()
  .refine((p) => p.text.length > 0 || (p.attachments?.length ?? 0) > 0, {
    error: 'must not be empty',
    path: ['text'],
  });

/** An undo or redo: `choices` answers each file that changed since (keep yours / take the version from before). */
export const undoParams = z
  .object({
    sessionId: id.optional(),
    turnId: id,
    scope: z.enum(['turn', 'from']).optional(),
    redo: z.boolean().optional(),
    preview: z.boolean().optional(),
    choices: z.record(z.string().min(1).max(4096), z.enum(['keep', 'take'])).optional(),
  })
  .strict();

export const commands = {
  'app.info': { params: empty, returns: returns<AppInfo>() },
  'app.checkForUpdates': { params: empty, returns: returns<UpdateStatus>() },
  'session.getState': { params: empty, returns: returns<SessionSnapshot>() },
  'session.prompt': { params: promptParams, returns: returns<{ accepted: true }>() },
  /** A file just attached in the composer: a PDF's text is read now, off the main thread, for the prompt that sends it. */
  'session.prepareAttachment': { params: attachmentUpload, returns: returns<{ preparing: boolean }>() },
  'session.abort': { params: empty, returns: returns<{ aborted: true }>() },
  'session.abortRetry': { params: empty, returns: returns<{ aborted: boolean }>() },
  'session.retryNow': { params: empty, returns: returns<{ skipped: boolean }>() },
  'session.sendAnyway': { params: empty, returns: returns<{ sent: boolean }>() },
  'session.resumeInterrupted': { params: z.object({ chainId: id }).strict(), returns: returns<{ resumed: boolean }>() },
  'session.discardInterrupted': {
    params: z.object({ chainId: id }).strict(),
    returns: returns<{ discarded: boolean }>(),
  },
  /** "Retry at …" on a chain that stopped for a long wait; false when it cannot be scheduled. */
  'session.scheduleRetry': { params: z.object({ chainId: id }).strict(), returns: returns<{ scheduled: boolean }>() },
  /** The new session's snapshot arrives as the session_changed event, to every client. */
  'session.new': { params: empty, returns: returns<{ sessionId: string }>() },
  /** Likewise: the resumed session arrives once, as session_changed. */
  'session.resume': { params: z.object({ sessionId: id }).strict(), returns: returns<{ sessionId: string }>() },
  'session.compact': { params: empty, returns: returns<{ summary: string; tokensBefore: number }>() },
  /**
   * The stopped turn runs again; progress arrives as events. `on`: "Continue on…" another model,
   * for this turn (docs/retry-policy.md, "Continue on another model"). `endOfflinePause`: the offline
   * banner's "Continue on <model>" — the chain paused offline ends and the turn goes on with `on`, in
   * one command (docs/retry-policy.md, "Offline: the chain pauses").
   */
  'session.continue': {
    params: z
      .object({ on: modelRefSchema.optional(), endOfflinePause: z.literal(true).optional() })
      .strict()
      .refine((p) => !p.endOfflinePause || p.on, {
        error: 'endOfflinePause needs a model to continue on',
        path: ['on'],
      }),
    returns: returns<{ accepted: true }>(),
  },
  'session.approveTool': {
    params: z.object({ id, choice: z.enum(APPROVAL_CHOICES) }).strict(),
    returns: returns<{ answered: boolean }>(),
  },
  /** Raise the chat's spending cap and go on, or stop the turn (docs/tools.md, "The spending cap"). */
  'session.answerSpendingCap': {
    params: z.object({ id, choice: z.enum(SPENDING_CAP_CHOICES) }).strict(),
    returns: returns<{ answered: boolean }>(),
  },
  /** This chat's own spending cap in place of agent.budget; null goes back to the setting. The row comes as history_changed. */
  'session.setBudget': {
    params: z.object({ budget: budgetSchema.nullable() }).strict(),
    returns: returns<{ budget: ChatBudget | null }>(),
  },
  /** The session's snapshot, with its new workspace, arrives as session_changed. */
  'session.setWorkspace': {
    params: z.object({ path: z.string().trim().min(1, { error: 'must not be empty' }).max(4096) }).strict(),
    returns: returns<{ workspace: string }>(),
  },
  /** null when the person closed the dialog without choosing. */
  'session.pickWorkspace': { params: empty, returns: returns<{ workspace: string | null }>() },
  /** The edited message is sent as a new branch; the turn streams as events. */
  'session.edit': {
    // keepAttachments: which of the message's attachments go again (their order in it); absent: all of them.
    params: z
      .object({
        turnId: id,
        text: optionalText,
        keepAttachments: z.array(z.number().int().min(0).max(1000)).max(1000).optional(),
      })
      .strict(),
    returns: returns<{ accepted: true }>(),
  },
  'session.regenerate': { params: empty, returns: returns<{ accepted: true }>() },
  'session.instructions': { params: empty, returns: returns<SessionInstructions>() },
  /** This conversation's own instructions in place of Settings → Agent's; null goes back to those. */
  'session.setInstructions': {
    params: z
      .object({
        override: z
          .object({
            text: z.string().max(SYSTEM_PROMPT_MAX_CHARS, {
              error: `must be at most ${SYSTEM_PROMPT_MAX_CHARS} characters`,
            }),
            mode: z.enum(['add', 'replace']),
          })
          .strict()
          .nullable(),
      })
      .strict(),
    returns: returns<SessionInstructions>(),
  },
  'settings.get': { params: empty, returns: returns<Settings>() },
  'settings.update': { params: z.object({ patch: settingsPatchSchema }).strict(), returns: returns<Settings>() },
  'providers.list': { params: empty, returns: returns<ProviderInfo[]>() },
  'providers.addKey': {
    params: z.object({ provider: z.enum(PROVIDER_IDS), apiKey: z.string().trim().min(1).max(4096) }).strict(),
    returns: returns<ProviderInfo>(),
  },
  'providers.removeKey': {
    params: z.object({ provider: z.enum(PROVIDER_IDS), keyId: id }).strict(),
    returns: returns<ProviderInfo>(),
  },
  'providers.test': { params: empty, returns: returns<ConnectionTestResult>() },
  'simulator.setScript': { params: z.object({ script: z.string().max(2000) }).strict(), returns: returns<Settings>() },
  'history.list': {
    params: z.object({ limit, offset: z.number().int().min(0).optional() }).strict(),
    returns: returns<SessionSummary[]>(),
  },
  // Without a limit, every turn (exports, small sessions); with one, the newest `limit` turns.
  'history.get': { params: z.object({ sessionId: id, limit }).strict(), returns: returns<SessionDetail>() },
  // An older page: the `limit` turns before seq `beforeSeq` (the oldest seq the client holds).
  'history.turns': {
    params: z
      .object({ sessionId: id, beforeSeq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), limit })
      .strict(),
    returns: returns<TurnPage>(),
  },
  'history.search': {
    params: z.object({ query: z.string().trim().min(1).max(500), limit }).strict(),
    returns: returns<SearchHit[]>(),
  },
  'history.erroredTurns': { params: z.object({ limit }).strict(), returns: returns<ErroredTurn[]>() },
  'history.delete': { params: z.object({ sessionId: id }).strict(), returns: returns<{ deleted: boolean }>() },
  'history.export': {
    params: z.object({ sessionId: id, format: exportFormat }).strict(),
    returns: returns<{ filename: string; mimeType: string; content: string }>(),
  },
  /** `since`: epoch ms the period starts at; null or absent for all of the history. */
  'history.failureCost': {
    params: z.object({ since: z.number().int().min(0).nullable().optional() }).strict(),
    returns: returns<FailureCostReport>(),
  },
  'history.rename': {
    params: z
      .object({ sessionId: id, title: z.string().trim().min(1, { error: 'must not be empty' }).max(200) })
      .strict(),
    returns: returns<SessionSummary>(),
  },
  /** Desktop only: saved through a save dialog; path null when the person cancelled it. */
  'history.saveExport': {
    params: z.object({ sessionId: id, format: exportFormat }).strict(),
    returns: returns<{ path: string | null }>(),
  },
  /** The file history (docs/file-history.md): a session's recorded changes; the shown one's when absent. */
  'files.changes': { params: z.object({ sessionId: id.optional() }).strict(), returns: returns<SessionFileChanges>() },
  /** Review: each file a person's turn (its message's turn id) changed, as a diff. */
  'files.review': {
    params: z.object({ sessionId: id.optional(), turnId: id }).strict(),
    returns: returns<FileReview[]>(),
  },
  /** Undo (or redo) a person's turn's changes — scope `from`: and every later turn's; preview writes nothing. */
  'files.undo': { params: undoParams, returns: returns<UndoOutcome>() },
  /** Settings → MCP's "Retry now": a fresh round of connect attempts; false when the server is not running. */
  'mcp.retry': { params: z.object({ name: mcpName }).strict(), returns: returns<{ retrying: boolean }>() },
  /** A connected server's resources and prompts, read-only; not_found when it is not connected. */
  'mcp.catalog': { params: z.object({ name: mcpName }).strict(), returns: returns<McpCatalog>() },
  /** The last lines of a server's stderr log (logs/mcp/<server>.log), 200 unless asked. */
  'mcp.log': {
    params: z.object({ name: mcpName, lines: z.number().int().min(1).max(2000).optional() }).strict(),
    returns: returns<McpLogTail>(),
  },
} as const;

export type CommandName = keyof typeof commands;
export type CommandParams<N extends CommandName> = z.infer<(typeof commands)[N]['params']>;
export type CommandResult<N extends CommandName> = (typeof commands)[N]['returns'] extends Returns<infer R> ? R : never;

/** One handler per command, each given the parsed params: what the router runs (src/main/node/domains/). */
export type CommandHandlers = {
  [N in CommandName]: (params: CommandParams<N>) => CommandResult<N> | Promise<CommandResult<N>>;
};

/** Every command name, in the table's order. */
export const COMMAND_NAMES = Object.keys(commands) as CommandName[];

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.hasOwn(commands, value);
}

export interface AppInfo {
  version: string;
  host: 'electron' | 'browser' | 'rpc';
  dataDir: string;
  logDir: string;
  simulatorUrl: string | null;
  /** The desktop app can show a native folder dialog; the browser mode offers a path field. */
  canPickFolder: boolean;
  /** Why a tool is unavailable on this system (e.g. bash on Windows), or null; coded like a notice. */
  toolsNote: NoticeText | null;
  /** What went wrong (or was repaired) while the app started, before any client listened; newest last. */
  notices: StartupNotice[];
  /** Each MCP server's status (docs/mcp.md); later changes come as mcp_status events. */
  mcpServers?: McpServerStatus[];
  /** The simulator sent every step of its fault script; later changes come as simulator_script events. */
  simulatorScriptUsedUp?: boolean;
  /** The version, its channel and the updater's state (docs/hosts.md, "Updates"); later changes come as update_status events. */
  updates?: UpdateStatus;
}

/** A notice raised at start-up, kept for clients that connect later; `id` is unique in this launch. */
export interface StartupNotice extends NoticeText {
  id: string;
  level: 'info' | 'warning' | 'error';
}

/** Where a key comes from: the window says it in the person's language (docs/architecture.md, "Notices"). */
export type KeySource = 'stored' | 'run' | 'environment' | 'built-in';

export interface ProviderKeyHint {
  id: string;
  source: KeySource;
  /** Masked, e.g. "sk-…a1b2"; null for the built-in key. The key itself never leaves the main process. */
  hint: string | null;
  /** Epoch ms until which a usage limit blocks this key, or null. */
  blockedUntil: number | null;
  /** Stored by the person (can be removed); false for the environment's, the run's and the built-in key. */
  removable: boolean;
}

/** What the model picker shows of one model (issue 30): from pi-ai's catalogue, newest first. */
export interface ModelDetail {
  id: string;
  name: string;
  /** Tokens. */
  contextWindow: number;
  /** USD per million tokens; null when the catalogue does not know it. */
  price: { input: number; output: number } | null;
  /** Reads images. */
  images: boolean;
  /** Thinks (reasoning). */
  reasoning: boolean;
}

export interface ProviderInfo {
  id: (typeof PROVIDER_IDS)[number];
  label: string;
  keys: ProviderKeyHint[];
  /** An environment variable provides a key too. */
  hasEnvKey: boolean;
  models: string[];
  /** Each listed model's context window, tokens, where the catalogue knows it. */
  contextWindows: Record<string, number>;
  /** The listed models as the picker shows them, newest first. */
  modelDetails: ModelDetail[];
  /** The model a newly chosen provider starts with. */
  defaultModel: string;
  /** Whether keys can be added (the simulator takes none). */
  takesKeys: boolean;
}

/** What "Test connection" found: one minimal request through the real path, classified. */
export interface ConnectionTestResult {
  ok: boolean;
  provider: string;
  model: string;
  /** From the request to its last byte, ms. */
  latencyMs: number;
  /** The error's category when it failed (the decision table's words), else null. */
  category: ErrorCategory | null;
  /** The reply's first words, or the provider's error message. */
  message: string;
  /** Not sent, the settings lack it: a key for a provider that needs one, or a server's URL. */
  missing?: 'key' | 'base_url';
  /** The host the request went to (a failure names it). */
  host?: string;
  /** An OpenAI-compatible server's models, as its GET /models lists them (when it answered). */
  serverModels?: string[];
}

/** What the current conversation's agent is told beyond Resolute's own words (docs/thinking-and-context.md). */
export interface SessionInstructions {
  /** The workspace's AGENTS.md (or CLAUDE.md) as the model reads it; null when there is none. */
  project: { file: string; text: string; truncated: boolean } | null;
  /** This conversation's own instructions, used instead of Settings → Agent's; null for none. */
  override: { text: string; mode: 'add' | 'replace' } | null;
}
