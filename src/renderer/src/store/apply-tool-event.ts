// The tool part of the renderer's one reducer (docs/tools.md, "In the chat"): live tool runs from
// tool_execution_start/update/end (what a card shows while bash runs) and the approval requests
// waiting for the person. applySessionEvent hands these events here; pure, like it.
import type { SessionEvent } from '../../../shared/events';
import { contentText } from '../../../shared/text';
import { toolDetailsOf, type ToolResultDetails } from '../../../shared/tools';
import type { AppState, LiveToolRun } from './state';

type ToolEvent = Extract<
  SessionEvent,
  {
    type:
      | 'tool_execution_start'
      | 'tool_execution_update'
      | 'tool_execution_end'
      | 'tool_approval_request'
      | 'tool_approval_end';
  }
>;

/** The text of a tool result or partial result as the events carry it. */
export function resultText(result: unknown): string {
  return contentText((result as { content?: unknown } | null)?.content);
}

function detailsOf(result: unknown): ToolResultDetails {
  return toolDetailsOf((result as { details?: unknown } | null)?.details);
}

function withRun(state: AppState, toolCallId: string, run: LiveToolRun | null): AppState {
  const toolRuns = { ...state.session.toolRuns };
  if (run) toolRuns[toolCallId] = run;
  else delete toolRuns[toolCallId];
  return { ...state, session: { ...state.session, toolRuns } };
}

export function applyToolEvent(state: AppState, event: ToolEvent): AppState {
  const session = state.session;
  switch (event.type) {
    case 'tool_execution_start': {
      const args = (typeof event.args === 'object' && event.args !== null ? event.args : {}) as Record<string, unknown>;
      const details = event.summary === undefined ? {} : { summary: event.summary };
      const run: LiveToolRun = { toolName: event.toolName, args, output: '', status: 'running', details };
      const next = withRun(state, event.toolCallId, run);
      return { ...next, session: { ...next.session, activeToolName: event.toolName } };
    }
    case 'tool_execution_update': {
      const run = session.toolRuns[event.toolCallId];
      return run ? withRun(state, event.toolCallId, { ...run, output: resultText(event.partialResult) }) : state;
    }
    case 'tool_execution_end': {
      const run = session.toolRuns[event.toolCallId];
      const ended: LiveToolRun = {
        toolName: event.toolName,
        args: run?.args ?? {},
        output: resultText(event.result),
        status: event.isError ? 'error' : 'done',
        details: {
          ...(run?.details.summary === undefined ? {} : { summary: run.details.summary }),
          ...detailsOf(event.result),
        },
      };
      const next = withRun(state, event.toolCallId, ended);
      return { ...next, session: { ...next.session, activeToolName: null } };
    }
    case 'tool_approval_request':
      if (session.pendingApprovals.some((r) => r.id === event.request.id)) return state;
      return { ...state, session: { ...session, pendingApprovals: [...session.pendingApprovals, event.request] } };
    case 'tool_approval_end':
      return {
        ...state,
        session: { ...session, pendingApprovals: session.pendingApprovals.filter((r) => r.id !== event.id) },
      };
  }
}
