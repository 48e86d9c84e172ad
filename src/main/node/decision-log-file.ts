// JSON-lines logs in the app's log folder: the decision log (docs/retry-policy.md, "The
// observability record"), one line per retry decision in retry-decisions.jsonl, and the sandbox
// audit log (docs/tools.md, "Audit"), one line per refused escape in sandbox-audit.jsonl. Appends
// synchronously (a line is on disk when the decision is acted on); a write failure is reported
// once and never takes the session down.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RetryDecisionRecord } from '../../shared/history';
import { codedNotice, noticeDetail } from '../../shared/notices';
import { type NoticeText } from '../../shared/notice-params';
import type { SandboxAuditRecord } from '../../shared/tools';
import type { AuditSink, DecisionLogSink } from '../core/ports';
import { makePrivateDir, PRIVATE_FILE_MODE } from './safe-files';

class JsonlLog<T> {
  readonly path: string;
  private failed = false;

  constructor(
    logDir: string,
    file: string,
    private readonly onError: (notice: NoticeText) => void,
  ) {
    makePrivateDir(logDir);
    this.path = join(logDir, file);
  }

  write(record: T): void {
    try {
      appendFileSync(this.path, `${JSON.stringify(record)}\n`, { mode: PRIVATE_FILE_MODE });
      this.failed = false;
    } catch (error) {
      if (!this.failed) this.onError(logWriteFailed(this.path, error));
      this.failed = true;
    }
  }
}

function logWriteFailed(path: string, error: unknown): NoticeText {
  const detail = noticeDetail(error);
  return codedNotice('log_write_failed', { path, detail }, `Could not write the log ${path}: ${detail}`);
}

export class JsonlDecisionLog extends JsonlLog<RetryDecisionRecord> implements DecisionLogSink {
  constructor(logDir: string, onError: (notice: NoticeText) => void = () => undefined) {
    super(logDir, 'retry-decisions.jsonl', onError);
  }
}

export class JsonlAuditLog extends JsonlLog<SandboxAuditRecord> implements AuditSink {
  constructor(logDir: string, onError: (notice: NoticeText) => void = () => undefined) {
    super(logDir, 'sandbox-audit.jsonl', onError);
  }
}
