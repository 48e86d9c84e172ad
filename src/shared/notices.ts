// Notices the main process raises for the person carry a stable code and its parameters beside the
// English text: the window translates the code (src/renderer/src/i18n, notice-text.ts), while the
// RPC mode, stderr and an older or newer window use the English `message` (docs/architecture.md,
// "Notices"). Main-side code builds them with `codedNotice`; the renderer checks them with
// `readNoticeCode` (notice-params.ts, with each code's parameters), so a malformed or unknown one falls
// back to its text. This file loads no package: `resolute --help` loads it and must load none.
import {
  MAX_NOTICE_TEXT,
  type NOTICE_PARAMS,
  type NoticeCode,
  type NoticeParamsOf,
  type NoticeText,
} from './notice-params';
import { errorText } from './text';

export type NoticeParams<C extends NoticeCode> = NoticeParamsOf<(typeof NOTICE_PARAMS)[C]>;
/** The codes whose only parameter is an error's text. */
type DetailCode = {
  [C in NoticeCode]: NoticeParams<C> extends { detail: string }
    ? keyof NoticeParams<C> extends 'detail'
      ? C
      : never
    : never;
}[NoticeCode];

/** A notice with its code, its parameters (checked by the type) and the English text. */
export function codedNotice<C extends NoticeCode>(code: C, params: NoticeParams<C>, message: string): NoticeText {
  return { code, params, message };
}

/** A coded notice wrapping an error: `detail` is the error's own text, `english` the sentence it goes in. */
export function errorNotice(code: DetailCode, english: string, error: unknown): NoticeText {
  const detail = noticeDetail(error);
  return codedNotice(code, { detail }, `${english}: ${detail}`);
}

/** An error's own text (text.ts), cut to what a notice holds. */
export function noticeDetail(error: unknown): string {
  return errorText(error).slice(0, MAX_NOTICE_TEXT);
}
