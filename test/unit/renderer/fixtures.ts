// Builders for the renderer unit tests: chat messages, stored turns, decision records and
// snapshots with sensible defaults, so each test states only what it is about, and a fake bridge.
import type { ResoluteBridge } from '../../../src/shared/bridge';
import type { CommandName } from '../../../src/shared/contract';
import type { SessionEvent, SessionSnapshot } from '../../../src/shared/events';
import type { RetryChainRecord, RetryDecisionRecord, SessionSummary, TurnRecord } from '../../../src/shared/history';
import type { AssistantChatMessage, ChatMessage, UserChatMessage } from '../../../src/shared/messages';

export const SESSION_ID = 's1';

export function userMessage(text: string, timestamp = 1000): UserChatMessage {
  return { role: 'user', content: text, timestamp };
}

export function assistantMessage(
  text: string,
  timestamp = 2000,
  extra: Partial<AssistantChatMessage> = {},
): AssistantChatMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }],
    provider: 'simulator',
    model: 'resolute-sim-1',
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
    stopReason: 'stop',
    timestamp,
    ...extra,
  };
}

export function erroredMessage(errorMessage: string, timestamp: number): AssistantChatMessage {
  return assistantMessage('', timestamp, { stopReason: 'error', errorMessage });
}

export function turn(seq: number, message: ChatMessage, extra: Partial<TurnRecord> = {}): TurnRecord {
  const isError = message.role === 'assistant' && message.stopReason === 'error';
  return {
    id: `t${seq}`,
    sessionId: SESSION_ID,
    seq,
    role: message.role,
    text:
      typeof message.content === 'string'
        ? message.content
        : message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
    message,
    model: null,
    provider: null,
    stopReason: message.role === 'assistant' ? message.stopReason : null,
    errorMessage: isError && message.role === 'assistant' ? (message.errorMessage ?? null) : null,
    errorCategory: isError ? 'server_error' : null,
    chainId: null,
    createdAt: message.timestamp,
    usage: null,
    costUsd: null,
    ...extra,
  };
}

export function decision(id: string, attempt: number, extra: Partial<RetryDecisionRecord> = {}): RetryDecisionRecord {
  return {
    id,
    timestamp: `2026-01-01T00:00:0${attempt}.000Z`,
    level: 'INFO',
    errorType: 'ServerError',
    category: 'server_error',
    attempt,
    action: 'retry',
    waitSeconds: 2 ** attempt,
    reason: 'server_error retries',
    errorMessage: '503 Service Unavailable',
    context: {
      taskType: 'chat',
      modelId: 'resolute-sim-1',
      provider: 'simulator',
      sessionId: SESSION_ID,
      turnId: null,
    },
    finalDecision: null,
    chainId: 'c1',
    ...extra,
  };
}

/** The retry paused offline: its first attempt failed to connect, of two allowed. */
export const OFFLINE_PAUSE: Extract<SessionEvent, { type: 'auto_retry_paused' }> = {
  type: 'auto_retry_paused',
  reason: 'offline',
  attempt: 1,
  maxAttempts: 2,
  errorMessage: 'Connection error.',
  category: 'connection',
  chainId: 'c1',
};

export function snapshot(extra: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    sessionId: SESSION_ID,
    title: 'First chat',
    turns: [],
    chains: [],
    decisions: [],
    hasOlderTurns: false,
    isStreaming: false,
    streamingMessage: null,
    isRetrying: false,
    retryAttempt: 0,
    pendingRetry: null,
    model: { provider: 'simulator', id: 'resolute-sim-1', label: 'Simulator', isSimulator: true },
    workspace: '/home/me/Resolute',
    pendingApprovals: [],
    interruptedRetry: null,
    pacing: null,
    activity: [],
    ...extra,
  };
}

export function chain(id: string, extra: Partial<RetryChainRecord> = {}): RetryChainRecord {
  return {
    id,
    sessionId: SESSION_ID,
    outcome: 'recovered',
    attempts: 1,
    finalError: null,
    startedAt: 0,
    endedAt: 1,
    ...extra,
  };
}

/** A session's row as history.list and history_changed carry it. */
export function summary(id: string, updatedAt: number, extra: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    title: `Session ${id}`,
    createdAt: 0,
    updatedAt,
    model: 'resolute-sim-1',
    provider: 'simulator',
    turnCount: 1,
    erroredTurnCount: 0,
    workspace: '/home/me/Resolute',
    ...extra,
  };
}

type Handler = (params: unknown) => unknown;

/** A bridge whose commands answer from `handlers` ({} otherwise), recording every call; tests emit events into it. */
export function fakeBridge(handlers: Partial<Record<CommandName, Handler>> = {}, withConnection = false) {
  const calls: { method: CommandName; params: unknown }[] = [];
  const listeners = new Set<(e: SessionEvent) => void>();
  const connection = new Set<(c: boolean) => void>();
  const bridge: ResoluteBridge = {
    host: 'browser',
    call: (async (method: CommandName, params: unknown) => {
      calls.push({ method, params });
      const handler = handlers[method];
      if (handler) return handler(params);
      return method === 'app.info' ? { notices: [] } : {};
    }) as ResoluteBridge['call'],
    onEvent: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    ...(withConnection
      ? {
          onConnection: (l: (c: boolean) => void) => {
            connection.add(l);
            return () => connection.delete(l);
          },
        }
      : {}),
  };
  return {
    bridge,
    calls,
    emit: (e: SessionEvent) => listeners.forEach((l) => l(e)),
    setConnected: (c: boolean) => connection.forEach((l) => l(c)),
  };
}
