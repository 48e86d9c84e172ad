// Tool calls in the transcript (chat/tool-items.ts through buildChatItems) and their live state
// (store/apply-tool-event.ts): a reply's words stay a bubble and each call becomes one card whose
// result comes from its stored toolResult turn, or, while it runs, from its events; a waiting
// approval shows on its card; a denied call reads as denied; Esc denies while a card waits.
import { describe, expect, it } from 'vitest';
import { buildChatItems, type ToolCallItem } from '../../../src/renderer/src/chat/chat-items';
import { EscHandlerStack } from '../../../src/renderer/src/retry/esc-handler';
import { applySessionEvent } from '../../../src/renderer/src/store/apply-session-event';
import { initialState, type AppState } from '../../../src/renderer/src/store/state';
import { ApprovalEscSwap } from '../../../src/renderer/src/tools/approval-esc';
import type { SessionEvent } from '../../../src/shared/events';
import type { AssistantChatMessage, ToolResultChatMessage } from '../../../src/shared/messages';
import { DENIED_RESULT } from '../../../src/shared/tools';
import { SESSION_ID, assistantMessage, snapshot, turn, userMessage } from './fixtures';
import { bashApproval } from '../../fixtures/approval-request';

const base = { chains: {}, decisions: [] };

function callingReply(text: string, calls: { id: string; name: string; args: object }[]): AssistantChatMessage {
  return assistantMessage(text, 2000, {
    stopReason: 'toolUse',
    content: [
      ...(text ? [{ type: 'text' as const, text }] : []),
      ...calls.map((c) => ({
        type: 'toolCall' as const,
        id: c.id,
        name: c.name,
        arguments: c.args as Record<string, unknown>,
      })),
    ],
  });
}

function result(toolCallId: string, text: string, extra: Partial<ToolResultChatMessage> = {}): ToolResultChatMessage {
  return {
    role: 'toolResult',
    toolCallId,
    toolName: 'bash',
    content: [{ type: 'text', text }],
    isError: false,
    timestamp: 3000,
    ...extra,
  };
}

const request = (id: string, toolCallId: string) => bashApproval({ id, toolCallId });

describe('tool cards in the transcript', () => {
  it('a reply that calls tools: its words as a bubble, then one card per call with its stored result', () => {
    const turns = [
      turn(1, userMessage('go')),
      turn(
        2,
        callingReply('Let me look.', [
          { id: 'c1', name: 'bash', args: { command: 'ls' } },
          { id: 'c2', name: 'read', args: { path: 'a' } },
        ]),
      ),
      turn(3, result('c1', 'a\nb', { details: { exitCode: 0, durationMs: 12 } })),
      turn(4, result('c2', 'Refused: outside', { toolName: 'read', isError: true }), {
        errorCategory: 'sandbox_security',
      }),
    ];
    const items = buildChatItems({ ...base, turns });
    expect(items.map((i) => (i.kind === 'message' ? `${i.role}:${i.text}` : i.kind))).toEqual([
      'user:go',
      'assistant:Let me look.',
      'tool-call',
      'tool-call',
    ]);
    const [bash, read] = items.slice(2) as ToolCallItem[];
    expect(bash).toMatchObject({
      toolName: 'bash',
      status: 'done',
      output: 'a\nb',
      details: { exitCode: 0, durationMs: 12 },
      args: { command: 'ls' },
    });
    expect(read).toMatchObject({ toolName: 'read', status: 'error', errorCategory: 'sandbox_security' });
  });

  it('a reply with only tool calls has no empty bubble', () => {
    const items = buildChatItems({ ...base, turns: [turn(1, callingReply('', [{ id: 'c1', name: 'ls', args: {} }]))] });
    expect(items.map((i) => i.kind)).toEqual(['tool-call']);
  });

  it('a running call shows its live output; a waiting one says so', () => {
    const turns = [turn(1, callingReply('', [{ id: 'c1', name: 'bash', args: { command: 'make' } }]))];
    const running = buildChatItems({
      ...base,
      turns,
      toolRuns: { c1: { toolName: 'bash', args: {}, output: 'compiling…', status: 'running', details: {} } },
    });
    expect(running[0]).toMatchObject({ status: 'running', output: 'compiling…' });
    const waiting = buildChatItems({ ...base, turns, pendingApprovals: [request('a1', 'c1')] });
    expect(waiting[0]).toMatchObject({ status: 'waiting' });
  });

  it('a denied call reads as denied, and a result whose call is missing still gets a card', () => {
    const turns = [
      turn(1, callingReply('', [{ id: 'c1', name: 'bash', args: {} }])),
      turn(2, result('c1', DENIED_RESULT, { isError: true })),
      turn(3, result('lost', 'orphan output')),
    ];
    const items = buildChatItems({ ...base, turns }) as ToolCallItem[];
    expect(items.map((i) => [i.toolCallId, i.status])).toEqual([
      ['c1', 'denied'],
      ['lost', 'done'],
    ]);
  });

  it('a call a quit or a crash cut off reads as interrupted, with what it printed', () => {
    const turns = [
      turn(1, callingReply('', [{ id: 'c1', name: 'bash', args: {} }])),
      turn(2, result('c1', 'half\n\n[Interrupted…]', { isError: true, details: { interrupted: true } })),
    ];
    expect(buildChatItems({ ...base, turns })[0]).toMatchObject({ status: 'interrupted', output: /^half/ });
  });

  it('a result not stored yet (pending) fills its card', () => {
    const items = buildChatItems({
      ...base,
      turns: [turn(1, callingReply('', [{ id: 'c1', name: 'bash', args: {} }]))],
      pendingMessages: [result('c1', 'done!')],
    });
    expect(items).toEqual([expect.objectContaining({ kind: 'tool-call', output: 'done!' })]);
  });
});

describe('tool events in the store', () => {
  const apply = (state: AppState, ...events: SessionEvent[]) => events.reduce(applySessionEvent, state);
  const connected = () => apply(initialState(), { type: 'session_changed', snapshot: snapshot() });

  it('follows a run from start through updates to its end, then leaves it to the stored turn', () => {
    let state = apply(
      connected(),
      { type: 'tool_execution_start', toolCallId: 'c1', toolName: 'bash', args: { command: 'ls' } },
      {
        type: 'tool_execution_update',
        toolCallId: 'c1',
        toolName: 'bash',
        args: {},
        partialResult: { content: [{ type: 'text', text: 'a' }] },
      },
    );
    expect(state.session.toolRuns.c1).toMatchObject({ status: 'running', output: 'a', args: { command: 'ls' } });
    expect(state.session.activeToolName).toBe('bash');
    state = apply(state, {
      type: 'tool_execution_end',
      toolCallId: 'c1',
      toolName: 'bash',
      result: { content: [{ type: 'text', text: 'a\nb' }], details: { exitCode: 1, bogus: true } },
      isError: true,
    });
    expect(state.session.toolRuns.c1).toEqual({
      toolName: 'bash',
      args: { command: 'ls' },
      output: 'a\nb',
      status: 'error',
      details: { exitCode: 1 },
    });
    expect(state.session.activeToolName).toBeNull();
    state = apply(state, { type: 'turn_persisted', turn: turn(5, result('c1', 'a\nb')) });
    expect(state.session.toolRuns).toEqual({});
  });

  it('keeps the waiting approvals: added once, removed when answered, replaced by a snapshot', () => {
    const asked: SessionEvent = { type: 'tool_approval_request', request: request('a1', 'c1') };
    let state = apply(connected(), asked, asked);
    expect(state.session.pendingApprovals.map((r) => r.id)).toEqual(['a1']);
    state = apply(state, { type: 'tool_approval_end', id: 'a1', choice: 'deny' });
    expect(state.session.pendingApprovals).toEqual([]);
    state = apply(state, {
      type: 'session_changed',
      snapshot: snapshot({ pendingApprovals: [request('a2', 'c2')], workspace: '/w' }),
    });
    expect(state.session).toMatchObject({ workspace: '/w', pendingApprovals: [expect.objectContaining({ id: 'a2' })] });
    expect(state.session.sessionId).toBe(SESSION_ID);
  });
});

describe('Esc while an approval card shows', () => {
  it('denies the first waiting request, and gives Esc back when none waits', () => {
    const calls: string[] = [];
    const stack = new EscHandlerStack(() => calls.push('stop'));
    const swap = new ApprovalEscSwap(stack, (r) => calls.push(`deny ${r.id}`));
    swap.onPending([request('a1', 'c1')]);
    swap.onPending([request('a1', 'c1')]);
    expect(stack.depth).toBe(1);
    stack.handle();
    swap.onPending([request('a2', 'c2')]);
    stack.handle();
    swap.onPending([]);
    stack.handle();
    expect(calls).toEqual(['deny a1', 'deny a2', 'stop']);
    expect(swap.isSwapped).toBe(false);
  });
});
