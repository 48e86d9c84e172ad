// The parts an AgentSession is made of, built and wired to each other once by its constructor:
// the turn recorder (history and decision log), the retry controller with the RetryHost the
// session gives it (below), the compactor, the agent's tools (docs/tools.md), the rate-limit
// pacing (docs/retry-policy.md) and what is done with each agent event (turn-events.ts). Kept
// apart so agent-session.ts reads as the session's API.
import { newId as newCompactId } from '../../../shared/ids';
import type { ModelInfo, PromptProcessingEvent, PromptWait, SessionEvent } from '../../../shared/events';
import type { ChatMessage } from '../../../shared/messages';
import type { ChatBudget } from '../../../shared/spending-cap';
import type { ModelPrice } from './attempt-cost';
import { Compactor } from './compaction';
import { type FallbackPort, PromptPacing, type RatePacer, RetryController, type RetryHost } from '../retry';
import { contextToContinuePartial } from '../llm/continue-partial';
import type {
  AgentPort,
  BudgetPort,
  Clock,
  CredentialStore,
  DecisionLogSink,
  HistoryWriter,
  NetworkCheck,
  SettingsStore,
  UsageLimitResult,
} from '../ports';
import { TurnEvents } from './turn-events';
import { ToolCoordinator, type ToolCoordinatorOptions } from '../tools/tool-coordinator';
import { TurnRecorder } from './turn-recorder';
import { reportingPromptWait } from '../llm/guarded-stream';
import { SpendingCap } from './spending-cap';

export interface AgentSessionOptions {
  /** pi-agent-core's Agent, or the DeferredAgent that builds it on first use. */
  agent: AgentPort;
  history: HistoryWriter;
  decisionLog: DecisionLogSink;
  settings: SettingsStore;
  credentials: CredentialStore;
  /** The model the agent talks to now, for events, history and the decision log. */
  modelInfo: () => ModelInfo;
  sessionId: string;
  title?: string;
  clock?: Clock;
  newId?: () => string;
  /** The agent's tools (docs/tools.md); without them the agent only chats. */
  tools?: Pick<ToolCoordinatorOptions, 'runtime' | 'audit' | 'workspace' | 'instructions' | 'journal'>;
  /** Lifecycle step 5's second switch: the next model of the fallback list, chosen, then used. */
  fallback?: FallbackPort;
  /** Offline-aware backoff: can the provider at this base URL be reached? Absent = assumed online. */
  networkCheck?: NetworkCheck;
  /** How often a chain paused offline asks again, ms. */
  offlinePollMs?: number;
  /** A model's list price, for the cost of each stored attempt; null when unknown. */
  priceOf?: (provider: string, modelId: string) => ModelPrice | null;
  /** Where the spending cap reads a chat's spending and keeps its own cap; absent = no cap (docs/tools.md). */
  budget?: BudgetPort;
  /** What providers said of their rate limits, shared by the app's chats (docs/retry-policy.md, "Rate-limit pacing"). */
  ratePacer?: RatePacer;
}

/** What the parts call back into the session for. */
export interface SessionHooks {
  emit: (event: SessionEvent) => void;
  sessionId: () => string;
  /** The app is quitting (AgentSession.shutdown). */
  shuttingDown: () => boolean;
}

export interface SessionParts {
  recorder: TurnRecorder;
  retry: RetryController;
  compactor: Compactor;
  /** The tools, their approvals and the gate that ends a turn on a tool failure; null without tools. */
  tools: ToolCoordinator | null;
  pacing: PromptPacing;
  /** What is done with each agent event: publish, store, and at a run's end hand a failure to the controller. */
  turnEvents: TurnEvents;
  /** A local server's prompt processing as the events last said it ("Two clocks"), for the snapshot. */
  promptWait: () => PromptWait | null;
  /** The spending cap each request is held against; null without a budget port. */
  spendingCap: SpendingCap | null;
}

/** Publishes the prompt-processing events and keeps what they say now, so a snapshot can show it. */
function trackedPromptWait(emit: (event: PromptProcessingEvent) => void) {
  let current: PromptWait | null = null;
  const publish = (event: PromptProcessingEvent): void => {
    if (event.type === 'prompt_processing_start') current = { startedAt: event.startedAt };
    else if (event.type === 'prompt_processing_progress')
      current = current && { ...current, processed: event.processed, total: event.total };
    else current = null;
    emit(event);
  };
  return { publish, current: () => current };
}

function buildTools(options: AgentSessionOptions, hooks: SessionHooks, newId: () => string, now: () => number) {
  if (!options.tools) return null;
  const { history, settings } = options;
  return new ToolCoordinator({
    ...options.tools,
    history,
    settings,
    emit: hooks.emit,
    newId,
    now,
    sessionId: hooks.sessionId,
    shuttingDown: hooks.shuttingDown,
  });
}

/** Step 5: another key of the provider first, else the next model of the fallback list (chosen, not applied). */
function usageLimitReached(
  options: AgentSessionOptions,
  sessionId: string,
  retryAfterMs: number | undefined,
): UsageLimitResult {
  const model = options.modelInfo();
  const result = options.credentials.markUsageLimitReached(model.provider, sessionId, {
    retryAfterMs,
    model: model.id,
  });
  const fallback = result.switched ? undefined : options.fallback?.next();
  if (fallback?.kind === 'switched')
    return { switched: true, earliestFreeAt: null, model: { from: fallback.from, to: fallback.to } };
  return fallback?.kind === 'exhausted' ? { ...result, exhausted: fallback.message } : result;
}

/** Failover after an outage (docs/retry-policy.md, "Failover"): the fallback list's next model, then used. */
function failoverPort(fallback: FallbackPort | undefined): RetryHost['failover'] {
  const { nextAfterOutage, useAfterOutage } = fallback ?? {};
  if (!nextAfterOutage || !useAfterOutage) return undefined;
  return {
    next: () => {
      const result = nextAfterOutage();
      return result.kind === 'switched' ? { from: result.from, to: result.to } : null;
    },
    use: (change) => useAfterOutage(change.to),
  };
}

/**
 * The RetryHost the session gives its RetryController (docs/retry-policy.md, "The retry
 * lifecycle"): the retry settings and events, the agent's run (trim the failed reply and continue
 * the agent), lifecycle step 5's two switches (applied when the controller says), the network check
 * of the offline pause, and the history's records — the TurnRecorder itself.
 */
function sessionRetryHost(
  options: AgentSessionOptions,
  hooks: SessionHooks,
  recorder: TurnRecorder,
  now: () => number,
): RetryHost {
  const { agent, settings, networkCheck } = options;
  return {
    settings: () => settings.get().retry,
    now,
    emit: hooks.emit,
    run: {
      trimTrailingError: () => {
        const messages = agent.state.messages;
        const last = messages[messages.length - 1] as ChatMessage | undefined;
        if (last?.role === 'assistant' && last.stopReason === 'error') agent.state.messages = messages.slice(0, -1);
      },
      continue: async () => {
        await agent.waitForIdle();
        await agent.continue();
      },
      carryPartial: () => {
        const context = contextToContinuePartial(agent.state.messages as ChatMessage[], now());
        if (context) agent.state.messages = context as typeof agent.state.messages;
      },
    },
    limits: {
      reached: ({ retryAfterMs }) => usageLimitReached(options, hooks.sessionId(), retryAfterMs),
      switchModel: (change) => options.fallback?.use(change.to),
    },
    failover: failoverPort(options.fallback),
    network: networkCheck
      ? { isReachable: () => networkCheck(agent.state.model.baseUrl), pollMs: options.offlinePollMs }
      : undefined,
    records: recorder,
  };
}

/** The cap per chat of `agent.budget`, without its day cap. */
function chatPart({ usd, tokens }: ChatBudget): ChatBudget {
  return { ...(usd !== undefined && { usd }), ...(tokens !== undefined && { tokens }) };
}

export function buildSessionParts(options: AgentSessionOptions, hooks: SessionHooks): SessionParts {
  const { agent, settings } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const newId = options.newId ?? newCompactId;
  const now = () => clock.now();
  // Before the tools wrap it: a local server's prompt processing reaches the chat as events.
  const promptWait = trackedPromptWait(hooks.emit);
  agent.streamFn = reportingPromptWait(agent.streamFn, promptWait.publish);
  const spendingCap = options.budget
    ? new SpendingCap({
        port: options.budget,
        setting: () => chatPart(settings.get().agent.budget),
        day: {
          setting: () => settings.get().agent.budget.perDay ?? {},
          raise: (perDay) => settings.update({ agent: { budget: { perDay } } }),
        },
        priceOf: options.priceOf,
        sessionId: hooks.sessionId,
        emit: hooks.emit,
        newId,
        now,
        holding: hooks.shuttingDown,
      })
    : null;
  if (spendingCap) agent.streamFn = spendingCap.guard(agent.streamFn);
  const tools = buildTools(options, hooks, newId, now);
  const recorder = new TurnRecorder({
    history: options.history,
    decisionLog: options.decisionLog,
    modelInfo: options.modelInfo,
    clock,
    newId,
    emit: hooks.emit,
    workspace: () => tools?.workspace ?? '',
    runtimeContext: () => agent.state.messages,
    priceOf: options.priceOf,
  });
  recorder.useSession(options.sessionId, options.title ?? '', Boolean(options.title));
  const retry = new RetryController(sessionRetryHost(options, hooks, recorder, now));
  const compactor = new Compactor({ agent, emit: hooks.emit, now });
  const pacing = new PromptPacing(hooks.emit, now, options.ratePacer);
  const { emit, shuttingDown } = hooks;
  const turnEvents = new TurnEvents({
    agent,
    settings,
    recorder,
    retry,
    compactor,
    tools,
    spendingCap,
    pacing,
    emit,
    now,
    shuttingDown,
  });
  return { recorder, retry, compactor, tools, pacing, turnEvents, promptWait: promptWait.current, spendingCap };
}
