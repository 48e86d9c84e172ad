// The tool calls of a session that are running now, with the newest output each has streamed
// (docs/tools.md, "In the chat"). The windows build a card's live output from the
// tool_execution_* events; a window that was not listening when a call started — reloaded, or
// showing another chat while this one worked in the background — gets them from the snapshot
// instead (SessionSnapshot.liveTools), so the card does not sit at "running" with nothing in it.
// Fed every event the session publishes; pure bookkeeping.
import type { LiveToolCall, SessionEvent } from '../../../shared/events';

export class LiveToolCalls {
  private readonly calls = new Map<string, LiveToolCall>();

  observe(event: SessionEvent): void {
    switch (event.type) {
      case 'tool_execution_start':
        this.calls.set(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
          ...(event.summary === undefined ? {} : { summary: event.summary }),
          partialResult: null,
        });
        return;
      case 'tool_execution_update': {
        const call = this.calls.get(event.toolCallId);
        if (call) call.partialResult = event.partialResult;
        return;
      }
      case 'tool_execution_end':
        this.calls.delete(event.toolCallId);
        return;
      case 'agent_end':
        // A run that ended took its calls with it, whether or not each said it ended.
        this.calls.clear();
        return;
      default:
    }
  }

  list(): LiveToolCall[] {
    return [...this.calls.values()].map((call) => ({ ...call }));
  }
}
