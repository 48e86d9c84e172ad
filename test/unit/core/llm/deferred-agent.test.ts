// Tests of DeferredAgent (src/main/core/llm/deferred-agent.ts): the state set before the first run
// reaches the real Agent, so do the tools' hooks and the stream function they wrap (and what is set
// while the Agent is being built), the run counts as streaming while pi-agent-core loads,
// subscribers hear the real Agent's events, and a failed load is reported and tried again; an
// AgentSession's edit and regenerate (which rewind the agent's messages) work as the first run. The
// factory is the test's own (a real Agent with a scripted stream): only the dynamic import is left out.
import { Agent, type AgentMessage, type StreamFn } from '@mariozechner/pi-agent-core';
import { describe, expect, it } from 'vitest';
import { AgentSession } from '../../../../src/main/core/session/agent-session';
import { DeferredAgent, type AgentInitialState, type AgentSetup } from '../../../../src/main/core/llm/deferred-agent';
import { createGuardedStreamFn } from '../../../../src/main/core/llm/guarded-stream';
import type { ChatMessage } from '../../../../src/shared/messages';
import {
  MODEL,
  MemoryCredentials,
  MemoryDecisionLog,
  MemoryHistory,
  MemorySettings,
  scriptedStream,
  type ScriptedStream,
} from '../session-fakes';

function deferred(factory?: (setup: AgentSetup) => Promise<Agent>) {
  const stream = scriptedStream([{ text: 'hello back' }]);
  const created: AgentInitialState[] = [];
  const create =
    factory ??
    (async ({ state, ...hooks }: AgentSetup) => {
      created.push({ ...state, messages: [...state.messages] });
      return new Agent({ initialState: { ...state }, ...hooks, getApiKey: () => 'k' });
    });
  const agent = new DeferredAgent(
    { systemPrompt: 'sys', model: MODEL, thinkingLevel: 'off', tools: [], messages: [] },
    { streamFn: stream.fn, getApiKey: () => 'k', create },
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
    const { agent } = deferred(async ({ state }) => {
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

  it("hands the Agent the tools' hooks and wrapped stream, and what was set while it was built", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stream = scriptedStream([{ text: 'hello back' }]);
    const setups: AgentSetup[] = [];
    const agent = new DeferredAgent(
      { systemPrompt: 'sys', model: MODEL, thinkingLevel: 'off', tools: [], messages: [] },
      {
        streamFn: stream.fn,
        getApiKey: () => 'k',
        create: async (setup) => {
          setups.push(setup);
          await gate;
          const { state, ...hooks } = setup;
          return new Agent({ initialState: state, ...hooks, getApiKey: () => 'k' });
        },
      },
    );
    // What ToolCoordinator.attach does: hooks, sequential calls, a gate around the stream function.
    const models: string[] = [];
    const base = agent.streamFn;
    const wrapped: StreamFn = (model, context, options) => {
      models.push(model.id);
      return base(model, context, options);
    };
    const beforeToolCall = async () => undefined;
    agent.streamFn = wrapped;
    agent.beforeToolCall = beforeToolCall;
    agent.toolExecution = 'sequential';

    const run = agent.prompt('hi');
    // pi-ai loaded meanwhile and the agent was pointed at another model (ActiveModel does this).
    agent.state.model = { ...MODEL, id: 'scripted-2' };
    release();
    await run;
    expect(setups).toHaveLength(1);
    expect(setups[0]).toMatchObject({ streamFn: wrapped, beforeToolCall, toolExecution: 'sequential' });
    expect(models).toEqual(['scripted-2']);
    expect(agent.state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    // From now on the hooks are the Agent's own.
    expect(agent.streamFn).toBe(wrapped);
    agent.toolExecution = 'parallel';
    expect(agent.toolExecution).toBe('parallel');
  });

  /** An AgentSession on a DeferredAgent whose Agent is not built yet (a resumed session, nothing run). */
  function sessionOnDeferred(stream: ScriptedStream) {
    const history = new MemoryHistory();
    const built: AgentInitialState[] = [];
    const agent = new DeferredAgent(
      { systemPrompt: 'sys', model: MODEL, thinkingLevel: 'off', tools: [], messages: [] },
      {
        streamFn: createGuardedStreamFn({ base: stream.fn, timeoutMs: () => 60_000 }),
        getApiKey: () => 'k',
        create: async ({ state, ...hooks }) => {
          built.push({ ...state, messages: [...state.messages] });
          return new Agent({ initialState: state, ...hooks, getApiKey: () => 'k' });
        },
      },
    );
    const session = new AgentSession({
      agent,
      history,
      decisionLog: new MemoryDecisionLog(),
      settings: new MemorySettings(),
      credentials: new MemoryCredentials(),
      modelInfo: () => ({ provider: MODEL.provider, id: MODEL.id, label: 'Scripted', isSimulator: false }),
      sessionId: 's',
    });
    return { session, history, built };
  }

  const said = (text: string, at: number): ChatMessage => ({ role: 'user', content: text, timestamp: at });

  it('regenerate as the first run: the rewound messages reach the Agent it builds, one request', async () => {
    const stream = scriptedStream([{ text: 'one, again' }]);
    const { session, history, built } = sessionOnDeferred(stream);
    await session.rewindAndContinue({ messages: [said('first', 1)], branchFrom: 2 });
    expect(built).toHaveLength(1);
    expect(built[0].messages).toEqual([said('first', 1)]);
    expect(stream.calls.map((c) => c.messageCount)).toEqual([1]);
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(history.turns.map((t) => [t.text, t.branchFrom ?? null])).toEqual([['one, again', 2]]);
  });

  it('edit and resend as the first run: the context before the edit, then the new message', async () => {
    const stream = scriptedStream([{ text: 'edited answer' }]);
    const { session, history, built } = sessionOnDeferred(stream);
    await session.rewindAndPrompt({ messages: [said('first', 1)], branchFrom: 3 }, 'second, edited');
    expect(built[0].messages).toEqual([said('first', 1)]);
    expect(stream.calls.map((c) => c.messageCount)).toEqual([2]);
    expect(history.turns.map((t) => [t.text, t.branchFrom ?? null])).toEqual([
      ['second, edited', 3],
      ['edited answer', null],
    ]);
  });
});
