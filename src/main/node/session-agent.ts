// The agent an AppServices session runs on: a DeferredAgent (src/main/core/llm/deferred-agent.ts), so
// that pi-ai and pi-agent-core load with the first run, not at start-up; every request goes through
// the guarded stream (timeout, HTTP facts, redaction, no SDK retries) and waits for pi-ai first.
// AppServices builds the stream once (Settings' Test connection gets one of its own, on its own
// HTTP-facts recorder) and the agent in createSession.
import { continuingStream } from '../core/llm/continue-partial';
import type { Agent, StreamFn, ThinkingLevel } from '@mariozechner/pi-agent-core';
import type { Api, Model } from '@mariozechner/pi-ai';
import { PROVIDER_IDS } from '../../shared/settings-values';
import { DeferredAgent, type AgentSetup } from '../core/llm/deferred-agent';
import { createGuardedStreamFn, type GuardedStreamOptions } from '../core/llm/guarded-stream';
import { loadPiRuntime, piRuntime } from '../core/llm/pi-runtime';
import type { HttpFactsSource } from '../core/retry';
import type { CredentialVault } from './credential-store';

const SYSTEM_PROMPT = 'You are Resolute, a helpful desktop assistant. Answer clearly and briefly.';

export interface AgentStreamParts {
  credentials: CredentialVault;
  facts: HttpFactsSource;
  /** Read per request: retry.timeoutMs. */
  timeoutMs: () => number;
  /** Read per request: retry.keepAliveLimitMinutes, in ms. */
  keepAliveLimitMs: () => number;
  /** A local server's first-token clock and probe (liveness-probe.ts). */
  localServer: GuardedStreamOptions['localServer'];
}

export interface SessionAgentParts {
  /** The model to start on (a real provider's needs pi-ai loaded: AppServices loads it at start). */
  model: Model<Api>;
  credentials: CredentialVault;
  /** createAgentStream's. */
  streamFn: StreamFn;
  /** The thinking level to start with (ActiveModel's). */
  thinkingLevel: ThinkingLevel;
}

export function createSessionAgent(parts: SessionAgentParts): DeferredAgent {
  const { credentials } = parts;
  const getApiKey = (provider: string): string | undefined =>
    credentials.activeCredential(provider, undefined, agent.state.model.id)?.apiKey;
  const agent: DeferredAgent = new DeferredAgent(
    { systemPrompt: SYSTEM_PROMPT, model: parts.model, thinkingLevel: parts.thinkingLevel, tools: [], messages: [] },
    { streamFn: parts.streamFn, getApiKey, create: (setup) => createAgent(setup, getApiKey) },
  );
  return agent;
}

/** Every request through the guarded stream, pi-ai loaded first. */
export function createAgentStream(parts: AgentStreamParts): StreamFn {
  const guarded = createGuardedStreamFn({
    base: (...args) => piRuntime().piAi.streamSimple(...args),
    timeoutMs: parts.timeoutMs,
    keepAliveLimitMs: parts.keepAliveLimitMs,
    localServer: parts.localServer,
    facts: parts.facts,
    secrets: () => parts.credentials.secrets(PROVIDER_IDS),
  });
  const continuing = continuingStream(guarded);
  return async (...args) => {
    await loadPiRuntime();
    return continuing(...args);
  };
}

/** The real Agent, with what the session and its tools set on the DeferredAgent until now. */
async function createAgent(setup: AgentSetup, getApiKey: (provider: string) => string | undefined): Promise<Agent> {
  const { agentCore } = await loadPiRuntime();
  const { state, ...hooks } = setup;
  return new agentCore.Agent({ initialState: state, ...hooks, getApiKey });
}
