// The RetryHost an AgentSession gives its RetryController (docs/retry-policy.md, "The retry
// lifecycle"): the retry settings and events, the agent's run (trim the failed reply — a
// provider's or, through the tool gate, a tool's — and continue the agent), lifecycle step 5's two
// switches (another key of the provider, then the next fallback model, applied when the controller
// says), the network check of the offline pause, and the history's chain and decision records (a
// resumed chain reopens its row; each event's writes are one transaction).
// Built once, by buildSessionParts.
import type { SessionEvent } from '../../../shared/events';
import type { ChatMessage } from '../../../shared/messages';
import type { AgentPort, UsageLimitResult } from '../ports';
import type { AgentSessionOptions } from '../session/session-parts';
import type { DecisionEntry, TurnRecorder } from '../session/turn-recorder';
import type { RetryHost } from './retry-host';

export interface SessionRetryHostParts {
  agent: AgentPort;
  options: Pick<
    AgentSessionOptions,
    'settings' | 'credentials' | 'modelInfo' | 'fallback' | 'networkCheck' | 'offlinePollMs'
  >;
  recorder: TurnRecorder;
  sessionId: () => string;
  emit: (event: SessionEvent) => void;
  recordDecision: (entry: DecisionEntry) => void;
  newId: () => string;
  now: () => number;
}

/** Step 5: another key of the provider first, else the next model of the fallback list (chosen, not applied). */
function usageLimitReached(parts: SessionRetryHostParts, retryAfterMs: number | undefined): UsageLimitResult {
  const { options } = parts;
  const model = options.modelInfo();
  const result = options.credentials.markUsageLimitReached(model.provider, parts.sessionId(), {
    retryAfterMs,
    model: model.id,
  });
  const fallback = result.switched ? undefined : options.fallback?.next();
  if (fallback?.kind === 'switched')
    return { switched: true, earliestFreeAt: null, model: { from: fallback.from, to: fallback.to } };
  return fallback?.kind === 'exhausted' ? { ...result, exhausted: fallback.message } : result;
}

export function sessionRetryHost(parts: SessionRetryHostParts): RetryHost {
  const { agent, options, recorder } = parts;
  const network = options.networkCheck;
  return {
    settings: () => options.settings.get().retry,
    now: parts.now,
    emit: parts.emit,
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
    },
    limits: {
      reached: ({ retryAfterMs }) => usageLimitReached(parts, retryAfterMs),
      switchModel: (change) => options.fallback?.use(change.to),
    },
    network: network
      ? { isReachable: () => network(agent.state.model.baseUrl), pollMs: options.offlinePollMs }
      : undefined,
    records: {
      newChainId: parts.newId,
      opened: (chainId) => recorder.openChain(chainId),
      reopened: (chainId) => recorder.reopenChain(chainId),
      closed: (chainId, end) => recorder.closeChain(chainId, end),
      scheduled: (chainId, at) => recorder.scheduleChain(chainId, at),
      decided: parts.recordDecision,
      batch: (writes) => recorder.batch(writes),
    },
  };
}
