// Tests of DeferredAgent (src/main/core/deferred-agent.ts): the state set before the first run
// reaches the real Agent, the run counts as streaming while pi-agent-core loads, subscribers hear
// the real Agent's events, and a failed load is reported and tried again. The factory is the
// test's own (a real Agent with a scripted stream): only the dynamic import is left out.
import { Agent, type AgentMessage } from '@mariozechner/pi-agent-core';
import { describe, expect, it } from 'vitest';
import { DeferredAgent, type AgentInitialState } from '../../../src/main/core/deferred-agent';
import { MODEL, scriptedStream } from './session-fakes';

function deferred(factory?: (state: AgentInitialState) => Promise<Agent>) {
  const stream = scriptedStream([{ text: 'hello back' }]);
  const created: AgentInitialState[] = [];
  const create =
    factory ??
    (async (state: AgentInitialState) => {
      created.push({ ...state, messages: [...state.messages] });
      return new Agent({ initialState: { ...state }, streamFn: stream.fn, getApiKey: () => 'k' });
    });
  const agent = new DeferredAgent(
    { systemPrompt: 'sys', model: MODEL, thinkingLevel: 'off', tools: [], messages: [] },
    create,
    () => 'k',
  );
  return { agent, created, stream };
}

describe('DeferredAgent', () => {
  it('keeps state and subscribers until the first prompt builds the Agent, then delegates to it', async () => {
    const { agent, created } = deferred();
    const earlier: AgentMessage = { role: 'user', content: 'resumed', timestamp: 1 };
    agent.state.messages = [earlier];
    agent.state.thinkingLevel = 'low';
    const events: string[] = [];
    agent.subscribe((event) => void events.push(event.type));
    expect(agent.state.isStreaming).toBe(false);
    await agent.waitForIdle();

    const run = agent.prompt('hi');
    expect(agent.state.isStreaming).toBe(true);
    await run;
    await agent.waitForIdle();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ systemPrompt: 'sys', thinkingLevel: 'low', messages: [earlier] });
    expect(agent.state.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(events).toContain('agent_end');
    expect(agent.state.isStreaming).toBe(false);
    await agent.continue().catch(() => undefined);
    expect(created).toHaveLength(1);
  });

  it('reports a failed load to the caller and tries again on the next run', async () => {
    let calls = 0;
    const stream = scriptedStream([]);
    const { agent } = deferred(async (state) => {
      calls += 1;
      if (calls === 1) throw new Error('module not found');
      return new Agent({ initialState: { ...state }, streamFn: stream.fn });
    });
    await expect(agent.prompt('first')).rejects.toThrow('module not found');
    expect(agent.state.isStreaming).toBe(false);
    await agent.prompt('second');
    expect(calls).toBe(2);
    expect(agent.state.messages.at(-1)?.role).toBe('assistant');
  });

  it('resets its early state like the Agent does', () => {
    const { agent } = deferred();
    agent.state.messages = [{ role: 'user', content: 'x', timestamp: 1 }];
    agent.reset();
    expect(agent.state.messages).toEqual([]);
    expect(agent.steeringMode).toBe('one-at-a-time');
  });
});
