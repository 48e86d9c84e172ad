// Which stored approval a conversation stopped at (answered-approval.ts, docs/tools.md "Approvals"):
// a call of the newest reply with no result yet — also when calls before it in that reply ran and
// their results were stored (tools run one at a time) — and never a call already answered.
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import { describe, expect, it } from 'vitest';
import { stoppedAt } from '../../../../src/main/core/session/answered-approval';
import { bashApproval } from '../../../fixtures/approval-request';

const request = (toolCallId: string) => bashApproval({ id: `r-${toolCallId}`, toolCallId });
const user = { role: 'user', content: 'go', timestamp: 1 };
const reply = (...ids: string[]) => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'toolCall', id, name: 'bash', arguments: {} })),
  timestamp: 2,
});
const result = (toolCallId: string) => ({ role: 'toolResult', toolCallId, toolName: 'ls', content: [], timestamp: 3 });
const conversation = (...messages: object[]) => messages as AgentMessage[];

describe('stoppedAt', () => {
  it('is the call of the newest reply that has no result', () => {
    expect(stoppedAt(conversation(user, reply('a')), request('a'))).toBe(true);
    expect(stoppedAt(conversation(user, reply('a')), request('b'))).toBe(false);
  });

  it('holds when an earlier call of the same reply ran and its result was stored', () => {
    expect(stoppedAt(conversation(user, reply('a', 'b'), result('a')), request('b'))).toBe(true);
  });

  it('does not hold once the call has its result, or the conversation went on', () => {
    expect(stoppedAt(conversation(user, reply('a'), result('a')), request('a'))).toBe(false);
    expect(stoppedAt(conversation(user, reply('a'), user), request('a'))).toBe(false);
    expect(stoppedAt(conversation(user, reply('a'), result('x'), reply('c')), request('a'))).toBe(false);
    expect(stoppedAt(conversation(user), request('a'))).toBe(false);
  });
});
