// Ends a run on a tool failure (docs/tools.md, "One path for every failure"). A fault is reported
// here while the tool batch runs; the calls after it are skipped (the coordinator asks `pending`),
// and the next model request the agent loop makes is not sent: the gate ends the run with a failed
// message, which the transcript and the history keep like any errored turn. What failed travels
// as the fault itself: at the run's end the session takes it (`takeEndedRun`) and hands the retry
// controller `{ kind: 'tool', fault }`, which the decision table handles (abort, or retry for
// invalid_output).
import type { StreamFn } from '@mariozechner/pi-agent-core';
import type { ToolFault } from '../retry';
import { failedMessage, failedStream } from '../llm/failed-message';

export type { ToolFault };

export class ToolFailureGate {
  private fault: ToolFault | null = null;
  /** The fault that ended the current run, until the run's end takes it. */
  private ended: ToolFault | null = null;

  /** The first fault of a batch wins; later ones are the consequences of the first. */
  report(fault: ToolFault): void {
    this.fault ??= fault;
  }

  get pending(): ToolFault | null {
    return this.fault;
  }

  /** The fault that ended this run instead of a model request, once; null when the run ended otherwise. */
  takeEndedRun(): ToolFault | null {
    const fault = this.ended;
    this.ended = null;
    return fault;
  }

  /** A new prompt or continue starts clean. */
  clear(): void {
    this.fault = null;
    this.ended = null;
  }

  /** The stream function the Agent calls: a pending fault ends the run instead of asking the provider. */
  wrap(base: StreamFn): StreamFn {
    return (model, context, options) => {
      const fault = this.fault;
      if (!fault) return base(model, context, options);
      this.fault = null;
      this.ended = fault;
      return failedStream(failedMessage(model, fault.message));
    };
  }
}
