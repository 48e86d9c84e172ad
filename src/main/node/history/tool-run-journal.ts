// The ToolRunJournal of every chat (docs/tools.md, "Runs cut by a quit or a crash"): the approvals
// asked and not answered go to the history's pending_approvals table; a call's start and its output
// so far go to its tool_runs table, the output at most once a second per
// call (the last one too, after the second has passed) and cut to the tool's caps, so a kill -9
// keeps nearly all a command printed without a write per chunk. AppServices gives it to each
// session's ToolCoordinator.
import type { ToolRunJournal, ToolRunStart } from '../../core/ports';
import type { ApprovalRequest } from '../../../shared/tools';
import { capTail } from '../tools/output-caps';
import type { ToolRunTable } from './tool-runs';

/** The least time between two writes of one call's output, ms. */
export const OUTPUT_WRITE_INTERVAL_MS = 1_000;

interface Pending {
  lastWrite: number;
  text: string | null;
  timer: NodeJS.Timeout | null;
}

export class ThrottledToolRunJournal implements ToolRunJournal {
  private readonly calls = new Map<string, Pending>();

  constructor(
    private readonly table: ToolRunTable,
    private readonly now: () => number = Date.now,
    /** A failed write is told here; the call runs on. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  began(run: ToolRunStart): void {
    this.guard(() => this.table.began(run));
    this.calls.set(run.toolCallId, { lastWrite: 0, text: null, timer: null });
  }

  output(toolCallId: string, text: string): void {
    const call = this.calls.get(toolCallId);
    if (!call) return;
    call.text = text;
    if (call.timer) return;
    const wait = call.lastWrite + OUTPUT_WRITE_INTERVAL_MS - this.now();
    if (wait <= 0) this.write(toolCallId, call);
    else call.timer = setTimeout(() => this.write(toolCallId, call), wait);
  }

  settled(toolCallId: string): void {
    const call = this.calls.get(toolCallId);
    if (call?.timer) clearTimeout(call.timer);
    this.calls.delete(toolCallId);
    this.guard(() => this.table.settled(toolCallId));
  }

  asked(sessionId: string, request: ApprovalRequest): void {
    this.guard(() => this.table.asked(sessionId, request));
  }

  answered(requestId: string): void {
    this.guard(() => this.table.answered(requestId));
  }

  /** The app closes: no timer may write to a closed database. */
  dispose(): void {
    for (const call of this.calls.values()) if (call.timer) clearTimeout(call.timer);
    this.calls.clear();
  }

  private write(toolCallId: string, call: Pending): void {
    call.timer = null;
    if (call.text === null || !this.calls.has(toolCallId)) return;
    call.lastWrite = this.now();
    const text = capTail(call.text).text;
    call.text = null;
    this.guard(() => this.table.output(toolCallId, text, call.lastWrite));
  }

  private guard(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.onError(error);
    }
  }
}
