// The JSON-lines decision log (docs/retry-policy.md, "The observability record"): one line per
// retry decision in <logDir>/retry-decisions.jsonl. Appends synchronously (a line is on disk when
// the decision is acted on); a write failure is reported once and never takes the session down.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RetryDecisionRecord } from '../../shared/history';
import type { DecisionLogSink } from '../core/ports';
import { makePrivateDir, PRIVATE_FILE_MODE } from './safe-files';

export class JsonlDecisionLog implements DecisionLogSink {
  readonly path: string;
  private failed = false;

  constructor(
    logDir: string,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    makePrivateDir(logDir);
    this.path = join(logDir, 'retry-decisions.jsonl');
  }

  write(record: RetryDecisionRecord): void {
    try {
      appendFileSync(this.path, `${JSON.stringify(record)}\n`, { mode: PRIVATE_FILE_MODE });
      this.failed = false;
    } catch (error) {
      if (!this.failed) this.onError(`Could not write the decision log ${this.path}: ${String(error)}`);
      this.failed = true;
    }
  }
}
