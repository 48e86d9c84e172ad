// DeferredAgent: stands in for pi-agent-core's Agent until the first run needs it, so start-up
// does not load pi-ai (src/main/core/llm/pi-runtime.ts). Until then it keeps what the session and its
// tools set on it (model, messages, thinking level, the tools and their hooks, the wrapped stream
// function) and its subscribers; the first prompt or continue builds the real Agent from that setup
// through the factory the composition root gives (src/main/node/app-services.ts) and delegates
// everything to it from then on.
import type { Agent, AgentEvent, AgentMessage, AgentState, StreamFn } from '@mariozechner/pi-agent-core';
import type { ImageContent } from '@mariozechner/pi-ai';
import type { AgentPort } from '../ports';

export type AgentInitialState = Pick<AgentState, 'systemPrompt' | 'model' | 'thinkingLevel' | 'tools' | 'messages'>;
type Listener = Parameters<Agent['subscribe']>[0];

/** Everything set on the DeferredAgent before the Agent exists: the factory builds the Agent with it. */
export interface AgentSetup {
  state: AgentInitialState;
  streamFn: StreamFn;
  beforeToolCall: Agent['beforeToolCall'];
  afterToolCall: Agent['afterToolCall'];
  toolExecution: Agent['toolExecution'];
}

export interface DeferredAgentOptions {
  /** The stream function the Agent will call (it may load what it needs itself); the tools wrap it. */
  streamFn: StreamFn;
  getApiKey: (provider: string) => string | undefined;
  /** Builds the Agent (loading pi-agent-core) from the setup. */
  create: (setup: AgentSetup) => Promise<Agent>;
}

interface EarlyState extends AgentInitialState {
  isStreaming: boolean;
  streamingMessage?: AgentMessage;
  pendingToolCalls: ReadonlySet<string>;
  errorMessage?: string;
}

function earlyState(initial: AgentInitialState): EarlyState {
  // Like the Agent's own state: assigning messages or tools copies the array.
  let messages = [...initial.messages];
  let tools = [...initial.tools];
  return {
    systemPrompt: initial.systemPrompt,
    model: initial.model,
    thinkingLevel: initial.thinkingLevel,
    get messages() {
      return messages;
    },
    set messages(next: AgentMessage[]) {
      messages = [...next];
    },
    get tools() {
      return tools;
    },
    set tools(next: AgentState['tools']) {
      tools = [...next];
    },
    isStreaming: false,
    pendingToolCalls: new Set<string>(),
  };
}

export class DeferredAgent implements AgentPort {
  readonly getApiKey: (provider: string) => string | undefined;
  private agent: Agent | undefined;
  private loading: Promise<Agent> | undefined;
  private readonly early: EarlyState;
  private readonly hooks: Omit<AgentSetup, 'state'>;
  private readonly listeners = new Set<Listener>();

  constructor(
    initial: AgentInitialState,
    private readonly options: DeferredAgentOptions,
  ) {
    this.early = earlyState(initial);
    this.getApiKey = options.getApiKey;
    // pi-agent-core's own defaults, until something sets them.
    this.hooks = {
      streamFn: options.streamFn,
      beforeToolCall: undefined,
      afterToolCall: undefined,
      toolExecution: 'parallel',
    };
  }

  get state(): AgentState {
    return this.agent?.state ?? this.early;
  }

  get steeringMode(): Agent['steeringMode'] {
    return this.agent?.steeringMode ?? 'one-at-a-time';
  }

  get followUpMode(): Agent['followUpMode'] {
    return this.agent?.followUpMode ?? 'one-at-a-time';
  }

  // The hooks the tools install: kept until the Agent exists, then the Agent's own.
  get streamFn(): StreamFn {
    return this.agent ? this.agent.streamFn : this.hooks.streamFn;
  }

  set streamFn(fn: StreamFn) {
    if (this.agent) this.agent.streamFn = fn;
    else this.hooks.streamFn = fn;
  }

  get beforeToolCall(): Agent['beforeToolCall'] {
    return this.agent ? this.agent.beforeToolCall : this.hooks.beforeToolCall;
  }

  set beforeToolCall(hook: Agent['beforeToolCall']) {
    if (this.agent) this.agent.beforeToolCall = hook;
    else this.hooks.beforeToolCall = hook;
  }

  get afterToolCall(): Agent['afterToolCall'] {
    return this.agent ? this.agent.afterToolCall : this.hooks.afterToolCall;
  }

  set afterToolCall(hook: Agent['afterToolCall']) {
    if (this.agent) this.agent.afterToolCall = hook;
    else this.hooks.afterToolCall = hook;
  }

  get toolExecution(): Agent['toolExecution'] {
    return this.agent ? this.agent.toolExecution : this.hooks.toolExecution;
  }

  set toolExecution(mode: Agent['toolExecution']) {
    if (this.agent) this.agent.toolExecution = mode;
    else this.hooks.toolExecution = mode;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  prompt(message: AgentMessage | AgentMessage[]): Promise<void>;
  prompt(input: string, images?: ImageContent[]): Promise<void>;
  async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
    const agent = await this.load();
    return typeof input === 'string' ? agent.prompt(input, images) : agent.prompt(input);
  }

  async continue(): Promise<void> {
    return (await this.load()).continue();
  }

  abort(): void {
    this.agent?.abort();
  }

  async waitForIdle(): Promise<void> {
    const agent = this.agent ?? (await this.loading?.catch(() => undefined));
    await agent?.waitForIdle();
  }

  reset(): void {
    if (this.agent) return this.agent.reset();
    this.early.messages = [];
    this.early.errorMessage = undefined;
  }

  /** Build the Agent once. While it loads, the run counts as streaming, so no second prompt starts. */
  private load(): Promise<Agent> {
    if (this.agent) return Promise.resolve(this.agent);
    this.early.isStreaming = true;
    this.loading ??= this.options.create({ state: this.setupState(), ...this.hooks }).then(
      (agent) => {
        this.handOver(agent);
        agent.subscribe((event: AgentEvent, signal: AbortSignal) => this.forward(event, signal));
        this.agent = agent;
        return agent;
      },
      (error: unknown) => {
        this.loading = undefined;
        this.early.isStreaming = false;
        throw error;
      },
    );
    return this.loading;
  }

  private setupState(): AgentInitialState {
    const { systemPrompt, model, thinkingLevel, tools, messages } = this.early;
    return { systemPrompt, model, thinkingLevel, tools, messages };
  }

  /** What was set while the Agent was being built (a model pointed at once pi-ai loaded) reaches it too. */
  private handOver(agent: Agent): void {
    Object.assign(agent.state, this.setupState());
    Object.assign(agent, this.hooks);
  }

  private async forward(event: AgentEvent, signal: AbortSignal): Promise<void> {
    for (const listener of [...this.listeners]) await listener(event, signal);
  }
}
