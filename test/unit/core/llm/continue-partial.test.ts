// The context Continue builds from a cut-off reply (src/main/core/llm/continue-partial.ts): its words
// only, as a finished reply, without the trailing whitespace Anthropic refuses in a prefill, then
// the instruction; nothing when the reply streamed no words.
import { describe, expect, it } from 'vitest';
import { CONTINUE_INSTRUCTION, contextToContinuePartial } from '../../../../src/main/core/llm/continue-partial';
import type { AssistantChatMessage, ChatMessage } from '../../../../src/shared/messages';
import { joinedContinuation } from '../../../../src/shared/messages';

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
const question: ChatMessage = { role: 'user', content: 'tell me', timestamp: 1 };
const cut = (
  content: AssistantChatMessage['content'],
  stopReason: 'error' | 'aborted' = 'error',
): AssistantChatMessage => ({
  role: 'assistant',
  content,
  provider: 'simulator',
  model: 'm',
  usage,
  stopReason,
  errorMessage: 'terminated',
  timestamp: 2,
});

describe('contextToContinuePartial', () => {
  it('sends the words back as a finished reply, then the instruction', () => {
    const failed = cut([
      { type: 'thinking', thinking: 'hmm' },
      { type: 'text', text: 'Once upon ' },
      { type: 'toolCall', id: 'c1', name: 'read', arguments: {} },
      { type: 'text', text: 'a time  \n' },
    ]);
    const context = contextToContinuePartial([question, failed], 99)!;
    expect(context).toHaveLength(3);
    expect(context[1]).toEqual({
      ...failed,
      errorMessage: undefined,
      content: [{ type: 'text', text: 'Once upon a time' }],
      stopReason: 'stop',
    });
    expect('errorMessage' in context[1]).toBe(false);
    expect(context[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: CONTINUE_INSTRUCTION }],
      timestamp: 99,
      isContinuation: true,
    });
  });

  it('a stopped (aborted) reply continues too, the same way', () => {
    const stopped = cut([{ type: 'text', text: 'Half ' }], 'aborted');
    const { errorMessage: _gone, ...rest } = stopped;
    expect(contextToContinuePartial([question, stopped], 5)).toStrictEqual([
      question,
      { ...rest, content: [{ type: 'text', text: 'Half' }], stopReason: 'stop' },
      { role: 'user', content: [{ type: 'text', text: CONTINUE_INSTRUCTION }], timestamp: 5, isContinuation: true },
    ]);
  });

  it.each([
    ['no words', [question, cut([{ type: 'toolCall', id: 'c1', name: 'read', arguments: {} }])]],
    ['only whitespace', [question, cut([{ type: 'text', text: ' \n' }])]],
    ['a finished reply', [question, { ...cut([{ type: 'text', text: 'Done' }]), stopReason: 'stop' as const }]],
    ['a question last', [question]],
    ['nothing', []],
  ])('gives nothing for %s', (_name, messages) => {
    expect(contextToContinuePartial(messages as ChatMessage[], 5)).toBeNull();
  });
});

describe('joinedContinuation', () => {
  it('puts the cut-off words before the reply’s first text block', () => {
    const reply = {
      ...cut([{ type: 'text', text: ' upon a time' }]),
      stopReason: 'stop' as const,
      continues: { timestamp: 2, text: 'Once' },
    };
    expect(joinedContinuation(reply).content).toEqual([{ type: 'text', text: 'Once upon a time' }]);
    const toolOnly = { ...reply, content: [{ type: 'toolCall' as const, id: 'c', name: 'ls', arguments: {} }] };
    expect(joinedContinuation(toolOnly).content[0]).toEqual({ type: 'text', text: 'Once' });
    const plain = cut([{ type: 'text', text: 'x' }]);
    expect(joinedContinuation(plain)).toBe(plain);
  });
});
