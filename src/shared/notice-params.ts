// The parameters of every notice code, as zod schemas, and the check a window runs on a notice it
// receives (docs/architecture.md, "Notices"). Kept apart from notices.ts, which the main process
// loads at start-up, so that only the code that checks a notice loads zod for it.
import { z } from 'zod';
import { MAX_NOTICE_TEXT, type NoticeCode, type NoticeText } from './notices';

const text = z.string().max(MAX_NOTICE_TEXT);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const none = z.object({}).strict();

/** Every code the main process sends, with the schema of its parameters. */
export const NOTICE_PARAMS = {
  /** Retry chains a crash or a kill cut off, closed as interrupted at start. */
  interrupted_chains: z.object({ count }).strict(),
  /** The data folder's lock was left by a process that is gone. */
  lock_taken_over: z.object({ pid: count }).strict(),
  settings_invalid: z.object({ detail: text, aside: text }).strict(),
  settings_unknown_keys: z.object({ names: text }).strict(),
  settings_script_cleared: z.object({ detail: text }).strict(),
  /** MCP server entries of the settings file that are not valid: kept in the file, not started. */
  settings_mcp_skipped: z.object({ detail: text }).strict(),
  credentials_unreadable: z.object({ detail: text, aside: text }).strict(),
  credentials_undecryptable: z.object({ count, providers: text, path: text }).strict(),
  /** The desktop app without a system keychain: keys sealed with the key file. */
  keychain_key_file: none,
  /** The desktop app without a system keychain, the key file declined: keys are not stored. */
  keys_not_stored: none,
  /** The background integrity check found the history damaged after start-up. */
  history_damaged_in_use: z.object({ path: text, detail: text }).strict(),
  compaction_still_too_long: none,
  /** Not a notice but the workspace picker's note (AppInfo.toolsNote): no sandbox for bash on Windows. */
  bash_off_on_windows: none,
  // An error wrapped in a sentence: `detail` is the error's own text, shown as it came.
  turn_save_failed: z.object({ detail: text }).strict(),
  retry_history_save_failed: z.object({ detail: text }).strict(),
  turn_internal_error: z.object({ detail: text }).strict(),
  compaction_retry_failed: z.object({ detail: text }).strict(),
  /** A turn a command started (send, edit, regenerate, continue) failed after the command was answered. */
  turn_command_failed: z.object({ detail: text }).strict(),
  simulator_script_not_applied: z.object({ detail: text }).strict(),
  catalogue_load_failed: z.object({ detail: text }).strict(),
  /** The decision log or the sandbox audit log could not be written (reported once until it works again). */
  log_write_failed: z.object({ path: text, detail: text }).strict(),
  /** The browser mode: an extension failed (`detail`) and is disabled; the session carries on. */
  extension_disabled: z.object({ path: text, detail: text }).strict(),
} as const satisfies Record<string, z.ZodType<Record<string, string | number>>>;

/** The code and parameters when both are known and well-formed; null means "show `message`". */
export function readNoticeCode(
  notice: Pick<NoticeText, 'code' | 'params'>,
): { code: NoticeCode; params: Record<string, string | number> } | null {
  const { code } = notice;
  if (typeof code !== 'string' || !Object.hasOwn(NOTICE_PARAMS, code)) return null;
  const known = code as NoticeCode;
  const parsed = NOTICE_PARAMS[known].safeParse(notice.params ?? {});
  return parsed.success ? { code: known, params: parsed.data } : null;
}
