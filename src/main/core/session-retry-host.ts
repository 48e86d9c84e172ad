// The RetryHost an AgentSession gives its RetryController (docs/retry-policy.md, "The retry
// lifecycle"): settings, events, trimming the failed reply from the runtime context, continuing
// the agent, the credential switch, the decision context and the history writes. Built once by
// AgentSession's constructor from the parts it owns.
import type { Agent } from '@mariozechner/pi-agent-core';
import type { ModelInfo, SessionEvent } from '../../shared/events';
import type { ChatMessage } from '../../shared/messages';
import type { Clock, CredentialStore, SettingsStore } from './ports';
import type { RetryHost } from './retry-controller';
import type { DecisionEntry, TurnRecorder } from './turn-recorder';

export interface RetryHostParts {
  agent: Agent;
  settings: SettingsStore;
  credentials: CredentialStore;
  modelInfo: () => ModelInfo;
  recorder: TurnRecorder;
  clock: Clock;
  newId: () => string;
  sessionId: () => string;
  currentTurnId: () => string | null;
  emit: (event: SessionEvent) => void;
  recordDecision: (entry: DecisionEntry) => void;
}

export function createRetryHost(parts: RetryHostParts): RetryHost {
  const { agent } = parts;
  return {
    retrySettings: () => parts.settings.get().retry,
    emit: (event) => parts.emit(event),
    trimTrailingError: () => {
      const messages = agent.state.messages;
      const last = messages[messages.length - 1] as ChatMessage | undefined;
      if (last?.role === 'assistant' && last.stopReason === 'error') agent.state.messages = messages.slice(0, -1);
    },
    continueAgent: async () => {
      await agent.waitForIdle();
      await agent.continue();
    },
    markUsageLimitReached: (opts) =>
      parts.credentials.markUsageLimitReached(parts.modelInfo().provider, parts.sessionId(), opts),
    decisionContext: () => {
      const model = parts.modelInfo();
      return {
        taskType: 'chat',
        modelId: model.id,
        provider: model.provider,
        sessionId: parts.sessionId(),
        turnId: parts.currentTurnId(),
      };
    },
    chainOpened: (chainId) => parts.recorder.openChain(chainId),
    chainClosed: (chainId, end) => parts.recorder.closeChain(chainId, end),
    decisionMade: (entry) => parts.recordDecision(entry),
    newId: () => parts.newId(),
    now: () => parts.clock.now(),
  };
}
