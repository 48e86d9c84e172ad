// The one error the history store throws when it cannot open its database: a file from a newer
// Resolute, a damaged file, or a file it cannot read at all. The message is written for the person
// (the Electron layer shows it as is); `kind` and `path` let callers offer "start fresh".
// Thrown by openHistoryStore (sqlite-history-store.ts) and the open sequence in history-open.ts.
import { codedNotice } from '../../../shared/notices';
import { type NoticeText } from '../../../shared/notice-params';

export type HistoryDatabaseErrorKind = 'newer_version' | 'damaged' | 'unreadable';

export interface HistoryDatabaseErrorDetails {
  /** SQLite's own message (or the OS error), for damaged and unreadable files. */
  detail?: string;
  /** The schema version found in the file (newer_version only). */
  foundVersion?: number;
  /** The latest schema version this build knows (newer_version only). */
  knownVersion?: number;
  cause?: unknown;
}

export class HistoryDatabaseError extends Error {
  override readonly name = 'HistoryDatabaseError';
  readonly kind: HistoryDatabaseErrorKind;
  readonly path: string;
  readonly detail: string | null;
  readonly foundVersion: number | null;
  readonly knownVersion: number | null;

  constructor(kind: HistoryDatabaseErrorKind, path: string, details: HistoryDatabaseErrorDetails = {}) {
    super(describe(kind, path, details), details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.path = path;
    this.detail = details.detail ?? null;
    this.foundVersion = details.foundVersion ?? null;
    this.knownVersion = details.knownVersion ?? null;
  }
}

function describe(kind: HistoryDatabaseErrorKind, path: string, details: HistoryDatabaseErrorDetails): string {
  const where = `The history database at ${path}`;
  switch (kind) {
    case 'newer_version':
      return (
        `${where} was written by a newer version of Resolute ` +
        `(schema ${details.foundVersion ?? '?'}; this version knows ${details.knownVersion ?? '?'}). ` +
        'It was left untouched. Update Resolute to open it.'
      );
    case 'damaged':
      return (
        `${where} is damaged (${details.detail ?? 'integrity check failed'}). It was left untouched; ` +
        'Resolute can move it aside and start a new, empty history if you agree.'
      );
    case 'unreadable':
      return (
        `${where} could not be opened (${details.detail ?? 'unknown error'}). It was left untouched; ` +
        'check that the file and its folder can be read and written.'
      );
  }
}

/** The words for damage the background check found while the file was already in use. */
export function describeDamageFoundInUse(error: HistoryDatabaseError): NoticeText {
  const detail = error.detail ?? 'integrity check failed';
  const message =
    `The history database at ${error.path} is damaged (${detail}): ` +
    'the background integrity check found it after start-up. Nothing was moved or deleted. Restart Resolute ' +
    'to move it aside and start a new, empty history (--reset-damaged-history on the command line).';
  return codedNotice('history_damaged_in_use', { path: error.path, detail }, message);
}

export function isHistoryDatabaseError(value: unknown): value is HistoryDatabaseError {
  return value instanceof HistoryDatabaseError;
}
