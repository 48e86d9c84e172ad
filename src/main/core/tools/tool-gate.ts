// Turns a tool failure into an errored turn on the same path as a provider error (docs/tools.md,
// "One path for every failure"). A failure is reported here while the tool batch runs; the next
// model request the agent loop makes is not sent: the gate answers it with an assistant message
// whose stopReason is "error", so the turn ends, AgentSession classifies it (the fault is a
// structured fact for the classifier), the decision table decides (abort, or retry for
// invalid_output), and the history and decision log record it like any failed request.
import type { StreamFn } from '@mariozechner/pi-agent-core';
import { failure } from '../llm/guarded-stream';
import { piRuntime } from '../llm/pi-runtime';
import type { ToolFailureCategory } from './tool-failure';

export interface ToolFault {
  category: ToolFailureCategory | 'invalid_output';
  /** What happened, as the errored turn states it. */
  message: string;
  toolCallId: string;
  toolName: string;
}

const faultByMessage = new WeakMap<object, ToolFault>();

/** The tool fault an errored assistant message stands for, if it does. */
export function toolFaultOf(message: object): ToolFault | undefined {
  return faultByMessage.get(message);
}

export class ToolFailureGate {
  private fault: ToolFault | null = null;

  /** The first fault of a batch wins; later ones are the consequences of the first. */
  report(fault: ToolFault): void {
    this.fault ??= fault;
  }

  get pending(): ToolFault | null {
    return this.fault;
  }

  /** A new prompt or continue starts clean. */
  clear(): void {
    this.fault = null;
  }

  /** The stream function the Agent calls: a pending fault answers instead of the provider. */
  wrap(base: StreamFn): StreamFn {
    return (model, context, options) => {
      const fault = this.fault;
      if (!fault) return base(model, context, options);
      this.fault = null;
      const message = failure(model, fault.message);
      faultByMessage.set(message, fault);
      // A fault is only ever reported during a run, which has loaded pi-ai.
      const stream = piRuntime().piAi.createAssistantMessageEventStream();
      queueMicrotask(() => {
        stream.push({ type: 'error', reason: 'error', error: message });
        stream.end(message);
      });
      return stream;
    };
  }
}
