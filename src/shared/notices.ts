// Notices the main process raises for the person carry a stable code and its parameters beside the
// English text: the window translates the code (src/renderer/src/i18n, notice-text.ts), while the
// RPC mode, stderr and an older or newer window use the English `message` (docs/architecture.md,
// "Notices"). Main-side code builds them with `codedNotice`; the renderer checks them with
// `readNoticeCode`, so a malformed or unknown one falls back to its text instead of breaking.
import { z } from 'zod';

const MAX_TEXT = 4000;
const text = z.string().max(MAX_TEXT);
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

export type NoticeCode = keyof typeof NOTICE_PARAMS;
export type NoticeParams<C extends NoticeCode> = z.infer<(typeof NOTICE_PARAMS)[C]>;
/** The codes whose only parameter is an error's text. */
type DetailCode = {
  [C in NoticeCode]: NoticeParams<C> extends { detail: string }
    ? keyof NoticeParams<C> extends 'detail'
      ? C
      : never
    : never;
}[NoticeCode];

/** What a notice says: the English text, and (optionally) the code a window translates instead. */
export interface NoticeText {
  message: string;
  /** A string on the wire: a newer main process may send a code this client does not know. */
  code?: string;
  params?: Record<string, unknown>;
}

/** A notice with its code, its parameters (checked by the type) and the English text. */
export function codedNotice<C extends NoticeCode>(code: C, params: NoticeParams<C>, message: string): NoticeText {
  return { code, params, message };
}

/** A coded notice wrapping an error: `detail` is the error's own text, `english` the sentence it goes in. */
export function errorNotice(code: DetailCode, english: string, error: unknown): NoticeText {
  const detail = errorText(error);
  return codedNotice(code, { detail }, `${english}: ${detail}`);
}

/** An error's own text: an Error's message, anything else as a string (cut to what a notice holds). */
export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, MAX_TEXT);
}

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
