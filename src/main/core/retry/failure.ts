// What ended a run, as one typed value (docs/retry-policy.md, "The retry lifecycle"): a provider's
// failure with the facts the LLM layer gathered (core/llm/failed-message.ts builds it), or a tool's
// fault that ended the tool batch (core/tools/tool-gate.ts). The session hands it to the
// RetryController's onRunEnd, which classifies it here once and decides once.
import { DECISION_TABLE } from '../../../shared/retry-policy/decision-table';
import type { ToolFailureCategory } from '../../../shared/error-category';
import { classifyError, type Classification, type ErrorInput } from './classify-error';

/** A tool failure that ended its batch: which row handles it, and what the errored turn says. */
export interface ToolFault {
  /** A sandbox or patch failure, or the model's invalid call (an unknown tool, arguments that fail the schema). */
  category: ToolFailureCategory | 'invalid_output';
  /** What happened, as the errored turn states it. */
  message: string;
  toolCallId: string;
  toolName: string;
}

export type Failure = { kind: 'provider'; facts: ErrorInput } | { kind: 'tool'; fault: ToolFault };

/** The failure's category, exception class and any retry hint. Never throws. */
export function classifyFailure(failure: Failure): Classification {
  if (failure.kind === 'provider') return classifyError(failure.facts);
  // A tool's fault is already placed: its category is the row (docs/tools.md, "Which failure is which").
  const { category } = failure.fault;
  return { category, errorType: DECISION_TABLE[category].exceptionClass, source: 'structured' };
}
