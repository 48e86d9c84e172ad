// The running tool calls a snapshot carries (src/main/core/tools/live-tool-calls.ts): a call is
// listed from its start with its newest output, and leaves at its end or with its run.
import { describe, expect, it } from 'vitest';
import { LiveToolCalls } from '../../../../src/main/core/tools/live-tool-calls';

const start = (toolCallId: string, summary?: string) =>
  ({
    type: 'tool_execution_start',
    toolCallId,
    toolName: 'bash',
    args: { command: 'make' },
    ...(summary === undefined ? {} : { summary }),
  }) as const;
const update = (toolCallId: string, text: string) =>
  ({
    type: 'tool_execution_update',
    toolCallId,
    toolName: 'bash',
    args: { command: 'make' },
    partialResult: { content: [{ type: 'text', text }] },
  }) as const;

describe('LiveToolCalls', () => {
  it('lists a call from its start, with the newest output it streamed, until its end', () => {
    const live = new LiveToolCalls();
    live.observe(start('a', 'make'));
    expect(live.list()).toEqual([
      { toolCallId: 'a', toolName: 'bash', args: { command: 'make' }, summary: 'make', partialResult: null },
    ]);
    live.observe(update('a', 'one\n'));
    live.observe(update('a', 'one\ntwo\n'));
    expect(live.list()[0]!.partialResult).toEqual({ content: [{ type: 'text', text: 'one\ntwo\n' }] });
    live.observe({ type: 'tool_execution_end', toolCallId: 'a', toolName: 'bash', result: {}, isError: false });
    expect(live.list()).toEqual([]);
  });

  it('keeps two calls apart, ignores an update for a call it never saw start, and empties at the run’s end', () => {
    const live = new LiveToolCalls();
    live.observe(start('a'));
    live.observe(start('b'));
    live.observe(update('b', 'b says'));
    live.observe(update('zzz', 'lost'));
    expect(live.list().map((call) => [call.toolCallId, call.partialResult === null])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    live.observe({ type: 'agent_end', messages: [] });
    expect(live.list()).toEqual([]);
  });

  it('hands out copies: a snapshot taken is not changed by the output that follows', () => {
    const live = new LiveToolCalls();
    live.observe(start('a'));
    const taken = live.list();
    live.observe(update('a', 'later'));
    expect(taken[0]!.partialResult).toBeNull();
  });
});
