// Test doubles at the boundaries of AgentSession: a scripted LLM (fails N times, then answers),
// played by pi-ai's own faux provider (registerFauxProvider: the real event stream, deltas and
// abort handling), and in-memory history, settings, credentials and decision log. Shared by the
// lifecycle tests.
import { Agent, type StreamFn } from '@mariozechner/pi-agent-core';
import {
  fauxAssistantMessage,
  fauxToolCall,
  registerFauxProvider,
  streamSimple,
  type Api,
  type FauxResponseStep,
  type Model,
} from '@mariozechner/pi-ai';
import { AgentSession, type AgentSessionOptions } from '../../../src/main/core/session/agent-session';
import { loadPiRuntime } from '../../../src/main/core/llm/pi-runtime';
import { createGuardedStreamFn } from '../../../src/main/core/llm/guarded-stream';
import type { HttpFactsSource, ProviderFacts } from '../../../src/main/core/retry/provider-facts';
import type {
  Clock,
  CredentialStore,
  DecisionLogSink,
  HistoryWriter,
  NewTurn,
  SettingsStore,
  UsageLimitResult,
} from '../../../src/main/core/ports';
import type { ChainOutcome } from '../../../src/shared/error-category';
import type { SessionEvent } from '../../../src/shared/events';
import type { RetryDecisionRecord, TurnRecord } from '../../../src/shared/history';
import { messageText } from '../../../src/shared/messages';
import type { SandboxAuditRecord } from '../../../src/shared/tools';
import { DEFAULT_SETTINGS, applySettingsPatch, type Settings } from '../../../src/shared/settings';

// The app loads pi-ai with its first run (DeferredAgent); these tests hand the session a real Agent.
await loadPiRuntime();

// Each text block comes as one delta (a token size larger than any scripted text).
const faux = registerFauxProvider({
  api: 'scripted',
  provider: 'scripted',
  models: [{ id: 'scripted-1', name: 'Scripted', input: ['text'], contextWindow: 8192, maxTokens: 1024 }],
  tokenSize: { min: 1_000_000, max: 1_000_000 },
});

export const MODEL: Model<Api> = faux.getModel();

/** A provider's context-overflow error, as OpenAI words it. */
export const OVERFLOW_ERROR =
  "400 This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.";

/**
 * One scripted reply: an error text, a successful text, a tool call, or a stream that never ends.
 * A text or a tool call may carry the response's headers, as the HTTP observer would have seen them.
 */
export type Step =
  | { error: string }
  | { text: string; headers?: Record<string, string> }
  | { stall: true }
  | { tool: string; args: Record<string, unknown>; id?: string; headers?: Record<string, string> }
  | { tools: { name: string; args: Record<string, unknown> }[] };

/** A first prompt answered, then a second whose request overflows the context: where the compaction cases start. */
export const SECOND_PROMPT_OVERFLOWS: Step[] = [{ text: 'first answer' }, { error: OVERFLOW_ERROR }];

export interface ScriptedStream {
  fn: StreamFn;
  calls: { apiKey: string | undefined; at: number; messageCount: number }[];
  /** What the HTTP observer would have seen of each request: the step's headers (for the guarded stream). */
  facts: HttpFactsSource;
}

/** The faux provider's reply for one step; a stall answers only when the request is aborted. */
function fauxReply(step: Step, call: number): FauxResponseStep {
  if ('stall' in step)
    return (_context, options) =>
      new Promise((resolve) => {
        const aborted = () => resolve(fauxAssistantMessage([], { stopReason: 'aborted' }));
        if (options?.signal?.aborted) aborted();
        else options?.signal?.addEventListener('abort', aborted);
      });
  if ('error' in step) return fauxAssistantMessage([], { stopReason: 'error', errorMessage: step.error });
  if ('text' in step) return fauxAssistantMessage(step.text);
  const wanted = 'tools' in step ? step.tools : [{ name: step.tool, args: step.args }];
  const id = (i: number) => ('id' in step && step.id ? step.id : `call-${call}-${i}`);
  return fauxAssistantMessage(
    wanted.map((c, i) => fauxToolCall(c.name, c.args, { id: id(i) })),
    { stopReason: 'toolUse' },
  );
}

/** Steps are used in order; after the last, every call answers "ok". */
export function scriptedStream(steps: Step[]): ScriptedStream {
  const calls: ScriptedStream['calls'] = [];
  let seen: ProviderFacts | undefined;
  const fn: StreamFn = (model, context, options) => {
    calls.push({ apiKey: options?.apiKey, at: Date.now(), messageCount: context.messages.length });
    const step = steps.shift() ?? { text: 'ok' };
    seen = 'headers' in step && step.headers ? { status: 200, headers: step.headers } : undefined;
    // The faux provider takes its reply when the request starts, so sessions in one file do not mix.
    faux.setResponses([fauxReply(step, calls.length)]);
    return streamSimple(model, context, options);
  };
  const facts: HttpFactsSource = { begin: () => ({ headers: {}, finish: () => seen }) };
  return { fn, calls, facts };
}

export class MemorySettings implements SettingsStore {
  settings: Settings;
  private listeners = new Set<(s: Settings) => void>();
  constructor(patch: Record<string, unknown> = {}) {
    const result = applySettingsPatch(DEFAULT_SETTINGS, patch);
    if (!result.ok) throw new Error(result.error);
    this.settings = result.value;
  }
  get(): Settings {
    return this.settings;
  }
  update(patch: unknown): Settings {
    const result = applySettingsPatch(this.settings, patch);
    if (!result.ok) throw new Error(result.error);
    this.settings = result.value;
    this.listeners.forEach((l) => l(this.settings));
    return this.settings;
  }
  subscribe(listener: (s: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class MemoryHistory implements HistoryWriter {
  turns: TurnRecord[] = [];
  chains = new Map<string, { outcome: ChainOutcome | 'open'; attempts: number; finalError: string | null }>();
  decisions: RetryDecisionRecord[] = [];
  ensureSession(): void {}
  appendTurn(turn: NewTurn): TurnRecord {
    this.countWrite();
    const m = turn.message;
    const record: TurnRecord = {
      id: `t${this.turns.length + 1}`,
      sessionId: turn.sessionId,
      seq: this.turns.length + 1,
      role: m.role,
      text: messageText(m),
      message: m,
      model: m.role === 'assistant' ? m.model : null,
      provider: m.role === 'assistant' ? m.provider : null,
      stopReason: m.role === 'assistant' ? m.stopReason : null,
      errorMessage: m.role === 'assistant' ? (m.errorMessage ?? null) : null,
      errorCategory: turn.errorCategory ?? null,
      chainId: turn.chainId ?? null,
      createdAt: Date.now(),
      usage: m.role === 'assistant' ? m.usage : null,
      costUsd: turn.costUsd ?? null,
      branchFrom: turn.branchFrom ?? null,
    };
    this.turns.push(record);
    return record;
  }
  openChain(chain: { id: string }): void {
    this.countWrite();
    this.chains.set(chain.id, { outcome: 'open', attempts: 0, finalError: null });
  }
  closeChain(chainId: string, end: { outcome: ChainOutcome; attempts: number; finalError: string | null }): void {
    this.countWrite();
    this.chains.set(chainId, { outcome: end.outcome, attempts: end.attempts, finalError: end.finalError });
  }
  reopenChain(chainId: string): void {
    this.countWrite();
    this.chains.set(chainId, { outcome: 'open', attempts: 0, finalError: null });
  }
  /** Each chain's scheduled time, as the last scheduleChain left it. */
  schedules = new Map<string, number | null>();
  scheduleChain(chainId: string, at: number | null): void {
    this.countWrite();
    this.schedules.set(chainId, at);
  }
  linkTurnToChain(turnId: string, chainId: string): void {
    this.countWrite();
    const turn = this.turns.find((t) => t.id === turnId);
    if (turn) turn.chainId = chainId;
  }
  recordDecision(record: RetryDecisionRecord): void {
    this.countWrite();
    this.decisions.push(record);
  }
  audits: SandboxAuditRecord[] = [];
  recordAudit(record: SandboxAuditRecord): void {
    this.countWrite();
    this.audits.push(record);
  }
  workspaces: string[] = [];
  setSessionWorkspace(_sessionId: string, workspace: string): void {
    this.countWrite();
    this.workspaces.push(workspace);
  }
  /** How many transactions the writes took: one per batch, one per write outside a batch. */
  transactions = 0;
  private inBatch = false;
  private countWrite(): void {
    if (!this.inBatch) this.transactions += 1;
  }
  batch(writes: () => void): void {
    this.transactions += 1;
    this.inBatch = true;
    try {
      writes();
    } finally {
      this.inBatch = false;
    }
  }
}

export class MemoryCredentials implements CredentialStore {
  private active = 0;
  marks: { retryAfterMs?: number }[] = [];
  constructor(private readonly keys: string[] = ['key-a']) {}
  activeCredential() {
    return { id: `k${this.active}`, apiKey: this.keys[this.active] };
  }
  markUsageLimitReached(_provider: string, _sessionId: string, options: { retryAfterMs?: number }): UsageLimitResult {
    this.marks.push(options);
    if (this.active + 1 < this.keys.length) {
      this.active += 1;
      return { switched: true, earliestFreeAt: null };
    }
    return { switched: false, earliestFreeAt: Date.now() + (options.retryAfterMs ?? 60_000) };
  }
}

export class MemoryDecisionLog implements DecisionLogSink {
  records: RetryDecisionRecord[] = [];
  write(record: RetryDecisionRecord): void {
    this.records.push(record);
  }
}

export interface Harness {
  session: AgentSession;
  stream: ScriptedStream;
  history: MemoryHistory;
  settings: MemorySettings;
  credentials: MemoryCredentials;
  log: MemoryDecisionLog;
  events: SessionEvent[];
  retryEvents: () => SessionEvent[];
  /** The Agent inside the session, for tests that must reach past its API (e.g. to break it). */
  agent: Agent;
}

export function harness(
  steps: Step[],
  options: {
    settings?: Record<string, unknown>;
    keys?: string[];
    tools?: AgentSessionOptions['tools'];
    clock?: Clock;
    history?: MemoryHistory;
    /** Wraps the scripted stream (a test that logs when each request leaves). */
    wrapStream?: (fn: StreamFn) => StreamFn;
  } = {},
): Harness {
  const stream = scriptedStream(steps);
  const settings = new MemorySettings({
    retry: { baseDelayMs: 5, jitterMaxMs: 0, ...((options.settings?.retry as object) ?? {}) },
    ...omit(options.settings, 'retry'),
  });
  const history = options.history ?? new MemoryHistory();
  const credentials = new MemoryCredentials(options.keys);
  const log = new MemoryDecisionLog();
  const agent = new Agent({
    initialState: { systemPrompt: 'test', model: MODEL, thinkingLevel: 'off', tools: [], messages: [] },
    streamFn: createGuardedStreamFn({
      base: options.wrapStream ? options.wrapStream(stream.fn) : stream.fn,
      timeoutMs: () => settings.get().retry.timeoutMs,
      facts: stream.facts,
    }),
    getApiKey: () => credentials.activeCredential().apiKey,
  });
  const session = new AgentSession({
    agent,
    history,
    decisionLog: log,
    settings,
    credentials,
    modelInfo: () => ({ provider: MODEL.provider, id: MODEL.id, label: 'Scripted', isSimulator: false }),
    sessionId: 'session-1',
    tools: options.tools,
    clock: options.clock,
  });
  const events: SessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  const retryEvents = () => events.filter((e) => e.type === 'auto_retry_start' || e.type === 'auto_retry_end');
  return { session, stream, history, settings, credentials, log, events, retryEvents, agent };
}

function omit(value: Record<string, unknown> | undefined, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value ?? {};
  return rest;
}

/** The retry events with the fields of policy A's lifecycle, for comparing sequences. */
/** The last retry event of a chain whose first retry was cancelled in its wait (abortRetry, dispose). */
export const FIRST_RETRY_CANCELLED = {
  type: 'auto_retry_end',
  success: false,
  attempt: 1,
  finalError: 'Retry cancelled',
} as const;

export const retryOnly = (events: SessionEvent[]) =>
  events
    .filter((e) => e.type === 'auto_retry_start' || e.type === 'auto_retry_end')
    .map((e) =>
      e.type === 'auto_retry_start'
        ? {
            type: e.type,
            attempt: e.attempt,
            maxAttempts: e.maxAttempts,
            delayMs: e.delayMs,
            errorMessage: e.errorMessage,
          }
        : { type: e.type, success: e.success, attempt: e.attempt, finalError: e.finalError },
    );

/** The next event of `type` the session publishes. */
export function waitForEvent(h: Harness, type: SessionEvent['type']): Promise<SessionEvent> {
  return new Promise((resolve) => {
    const off = h.session.subscribe((e) => {
      if (e.type === type) {
        off();
        resolve(e);
      }
    });
  });
}
