// The one typed contract between the main process and its clients: every command with the
// zod schema of its params and the type of its result. Both hosts (Electron IPC and the browser
// WebSocket) and the renderer's bridges are typed by this file; the host router validates params
// against it before anything runs.
import { z } from 'zod';
import type { ErrorCategory } from './error-category';
import type { ErroredTurn, FailureCostReport, SearchHit, SessionDetail, SessionSummary, TurnPage } from './history';
import type { SessionSnapshot } from './events';
import type { NoticeText } from './notices';
import { PROVIDER_IDS, settingsPatchSchema, type Settings } from './settings';
import type { CommandName } from './command-names';
import { APPROVAL_CHOICES } from './tools';

export { COMMAND_NAMES, isCommandName, unknownCommandError, type CommandName } from './command-names';

const id = z.string().min(1, { error: 'must not be empty' }).max(200);
const limit = z.number().int().min(1).max(1000).optional();
const empty = z.object({}).strict();
const promptText = z.string().trim().min(1, { error: 'must not be empty' }).max(200_000);
const exportFormat = z.enum(['json', 'markdown']);

export const commandParams = {
  'app.info': empty,
  'session.getState': empty,
  'session.prompt': z.object({ text: promptText }).strict(),
  'session.abort': empty,
  'session.abortRetry': empty,
  'session.retryNow': empty,
  'session.sendAnyway': empty,
  'session.resumeInterrupted': z.object({ chainId: id }).strict(),
  'session.discardInterrupted': z.object({ chainId: id }).strict(),
  'session.new': empty,
  'session.resume': z.object({ sessionId: id }).strict(),
  'session.compact': empty,
  'session.continue': empty,
  'session.approveTool': z.object({ id, choice: z.enum(APPROVAL_CHOICES) }).strict(),
  'session.setWorkspace': z
    .object({ path: z.string().trim().min(1, { error: 'must not be empty' }).max(4096) })
    .strict(),
  'session.pickWorkspace': empty,
  'session.edit': z.object({ turnId: id, text: promptText }).strict(),
  'session.regenerate': empty,
  'settings.get': empty,
  'settings.update': z.object({ patch: settingsPatchSchema }).strict(),
  'providers.list': empty,
  'providers.addKey': z.object({ provider: z.enum(PROVIDER_IDS), apiKey: z.string().trim().min(1).max(4096) }).strict(),
  'providers.removeKey': z.object({ provider: z.enum(PROVIDER_IDS), keyId: id }).strict(),
  'providers.test': empty,
  'simulator.setScript': z.object({ script: z.string().max(2000) }).strict(),
  'history.list': z.object({ limit, offset: z.number().int().min(0).optional() }).strict(),
  // Without a limit, every turn (exports, small sessions); with one, the newest `limit` turns.
  'history.get': z.object({ sessionId: id, limit }).strict(),
  // An older page: the `limit` turns before seq `beforeSeq` (the oldest seq the client holds).
  'history.turns': z
    .object({ sessionId: id, beforeSeq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), limit })
    .strict(),
  'history.search': z.object({ query: z.string().trim().min(1).max(500), limit }).strict(),
  'history.erroredTurns': z.object({ limit }).strict(),
  'history.delete': z.object({ sessionId: id }).strict(),
  'history.export': z.object({ sessionId: id, format: exportFormat }).strict(),
  /** `since`: epoch ms the period starts at; null or absent for all of the history. */
  'history.failureCost': z.object({ since: z.number().int().min(0).nullable().optional() }).strict(),
  'history.rename': z
    .object({ sessionId: id, title: z.string().trim().min(1, { error: 'must not be empty' }).max(200) })
    .strict(),
  'history.saveExport': z.object({ sessionId: id, format: exportFormat }).strict(),
} as const satisfies Record<CommandName, z.ZodType>;

// Both directions: every name has a schema (satisfies above) and every schema a listed name.
type Unlisted = Exclude<keyof typeof commandParams, CommandName>;
const _everySchemaListed: Unlisted extends never ? true : never = true;
void _everySchemaListed;
export type CommandParams<N extends CommandName> = z.infer<(typeof commandParams)[N]>;

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
}

export interface CommandResults {
  'app.info': AppInfo;
  'session.getState': SessionSnapshot;
  'session.prompt': { accepted: true };
  'session.abort': { aborted: true };
  'session.abortRetry': { aborted: boolean };
  'session.retryNow': { skipped: boolean };
  'session.sendAnyway': { sent: boolean };
  'session.resumeInterrupted': { resumed: boolean };
  'session.discardInterrupted': { discarded: boolean };
  /** The new session's snapshot arrives as the session_changed event, to every client. */
  'session.new': { sessionId: string };
  /** Likewise: the resumed session arrives once, as session_changed. */
  'session.resume': { sessionId: string };
  'session.compact': { summary: string; tokensBefore: number };
  /** The stopped turn runs again; progress arrives as events. */
  'session.continue': { accepted: true };
  'session.approveTool': { answered: boolean };
  /** The session's snapshot, with its new workspace, arrives as session_changed. */
  'session.setWorkspace': { workspace: string };
  /** null when the person closed the dialog without choosing. */
  'session.pickWorkspace': { workspace: string | null };
  /** The edited message is sent as a new branch; the turn streams as events. */
  'session.edit': { accepted: true };
  'session.regenerate': { accepted: true };
  'settings.get': Settings;
  'settings.update': Settings;
  'providers.list': ProviderInfo[];
  'providers.addKey': ProviderInfo;
  'providers.removeKey': ProviderInfo;
  'providers.test': ConnectionTestResult;
  'simulator.setScript': Settings;
  'history.list': SessionSummary[];
  'history.get': SessionDetail;
  'history.turns': TurnPage;
  'history.search': SearchHit[];
  'history.erroredTurns': ErroredTurn[];
  'history.delete': { deleted: boolean };
  'history.export': { filename: string; mimeType: string; content: string };
  'history.failureCost': FailureCostReport;
  'history.rename': SessionSummary;
  /** Desktop only: saved through a save dialog; path null when the person cancelled it. */
  'history.saveExport': { path: string | null };
}

export type CommandResult<N extends CommandName> = CommandResults[N];
