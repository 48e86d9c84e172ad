// DeferredAgent: stands in for pi-agent-core's Agent until the first run needs it, so start-up
// does not load pi-ai (src/main/core/pi-runtime.ts). Until then it keeps the state the session
// sets (model, messages, thinking level) and its subscribers; the first prompt, continue or
// stream call builds the real Agent from that state through the factory the composition root
// gives (src/main/node/app-services.ts) and delegates everything to it from then on.
import type { Agent, AgentEvent, AgentMessage, AgentState, StreamFn } from '@mariozechner/pi-agent-core';
import type { ImageContent } from '@mariozechner/pi-ai';
import type { AgentPort } from './ports';

export type AgentInitialState = Pick<AgentState, 'systemPrompt' | 'model' | 'thinkingLevel' | 'tools' | 'messages'>;
type Listener = Parameters<Agent['subscribe']>[0];

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
  private agent: Agent | undefined;
  private loading: Promise<Agent> | undefined;
  private readonly early: EarlyState;
  private readonly listeners = new Set<Listener>();

  constructor(
    initial: AgentInitialState,
    private readonly create: (state: AgentInitialState) => Promise<Agent>,
    readonly getApiKey: (provider: string) => string | undefined,
  ) {
    this.early = earlyState(initial);
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

  readonly streamFn: StreamFn = async (...args) => (await this.load()).streamFn(...args);

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
    this.loading ??= this.create(this.early).then(
      (agent) => {
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

  private async forward(event: AgentEvent, signal: AbortSignal): Promise<void> {
    for (const listener of [...this.listeners]) await listener(event, signal);
  }
}
