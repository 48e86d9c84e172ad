// The parameters of every notice code, each a text or a count, and the check a window runs on a
// notice it receives (docs/architecture.md, "Notices"): a notice whose code is unknown or whose
// parameters are not exactly these falls back to its English text. Plain checks, no package, so
// the window's first chunk carries no schema library for them.
// The primary of the two: notices.ts imports these, and this file imports nothing of it.

/** The longest text a notice's parameter may hold. */
export const MAX_NOTICE_TEXT = 4000;

/** What a notice says: the English text, and (optionally) the code a window translates instead. */
export interface NoticeText {
  message: string;
  /** A string on the wire: a newer main process may send a code this client does not know. */
  code?: string;
  params?: Record<string, unknown>;
}

/** A parameter's kind: a string of at most MAX_NOTICE_TEXT characters, or a whole number ≥ 0. */
type Kind = 'text' | 'count';

/** Every code the main process sends, with the kind of each of its parameters. */
export const NOTICE_PARAMS = {
  /** Retry chains a crash or a kill cut off, closed as interrupted at start. */
  interrupted_chains: { count: 'count' },
  /** The data folder's lock was left by a process that is gone. */
  lock_taken_over: { pid: 'count' },
  /** A newer Resolute migrated the history; the file as it was is kept at `path` (a downgrade opens it). */
  history_backup: { path: 'text', from: 'count', to: 'count' },
  settings_invalid: { detail: 'text', aside: 'text' },
  settings_unknown_keys: { names: 'text' },
  settings_script_cleared: { detail: 'text' },
  /** MCP server entries of the settings file that are not valid: kept in the file, not started. */
  settings_mcp_skipped: { detail: 'text' },
  /** MCP env values or headers whose sealed copy is gone: left out of their entries. */
  settings_mcp_secrets_missing: { detail: 'text' },
  credentials_unreadable: { detail: 'text', aside: 'text' },
  credentials_undecryptable: { count: 'count', providers: 'text', path: 'text' },
  /** The desktop app without a system keychain: keys sealed with the key file. */
  keychain_key_file: {},
  /** The desktop app without a system keychain, the key file declined: keys are not stored. */
  keys_not_stored: {},
  /** The background integrity check found the history damaged after start-up. */
  history_damaged_in_use: { path: 'text', detail: 'text' },
  compaction_still_too_long: {},
  /** Not a notice but the workspace picker's note (AppInfo.toolsNote): no sandbox for bash on Windows. */
  bash_off_on_windows: {},
  // An error wrapped in a sentence: `detail` is the error's own text, shown as it came.
  turn_save_failed: { detail: 'text' },
  retry_history_save_failed: { detail: 'text' },
  turn_internal_error: { detail: 'text' },
  compaction_retry_failed: { detail: 'text' },
  /** A turn a command started (send, edit, regenerate, continue) failed after the command was answered. */
  turn_command_failed: { detail: 'text' },
  simulator_script_not_applied: { detail: 'text' },
  catalogue_load_failed: { detail: 'text' },
  /** The decision log or the sandbox audit log could not be written (reported once until it works again). */
  log_write_failed: { path: 'text', detail: 'text' },
  /** The browser mode: an extension failed (`detail`) and is disabled; the session carries on. */
  extension_disabled: { path: 'text', detail: 'text' },
} as const satisfies Record<string, Record<string, Kind>>;

export type NoticeCode = keyof typeof NOTICE_PARAMS;

/** The parameters of one code, as the main process builds them. */
export type NoticeParamsOf<S extends Record<string, Kind>> = { [K in keyof S]: S[K] extends 'count' ? number : string };

function fits(kind: Kind, value: unknown): boolean {
  if (kind === 'text') return typeof value === 'string' && value.length <= MAX_NOTICE_TEXT;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The code and parameters when both are known and well-formed; null means "show `message`". */
export function readNoticeCode(
  notice: Pick<NoticeText, 'code' | 'params'>,
): { code: NoticeCode; params: Record<string, string | number> } | null {
  const { code } = notice;
  if (typeof code !== 'string' || !Object.hasOwn(NOTICE_PARAMS, code)) return null;
  const known = code as NoticeCode;
  const shape: Record<string, Kind> = NOTICE_PARAMS[known];
  const params = notice.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return null;
  const names = Object.keys(params);
  if (names.length !== Object.keys(shape).length) return null;
  if (!names.every((name) => Object.hasOwn(shape, name) && fits(shape[name], params[name]))) return null;
  return { code: known, params: params as Record<string, string | number> };
}
