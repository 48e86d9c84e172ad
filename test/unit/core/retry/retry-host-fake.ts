// A RetryHost recorded in memory — the session's side of the RetryController — and the failures
// the controller tests feed it. Shared by the controller's tests (lifecycle, offline pause, resume).
import { afterEach, beforeEach, vi } from 'vitest';
import type { Classification } from '../../../../src/main/core/retry/classify-error';
import type { UsageLimitResult } from '../../../../src/main/core/ports';
import type { ModelSwitch } from '../../../../src/main/core/retry/decide-retry';
import type {
  ChainRecords,
  NetworkProbe,
  RetryHost,
  RetryRun,
  UsageLimits,
} from '../../../../src/main/core/retry/retry-host';
import type { AutoRetryStartEvent, RetryEvent } from '../../../../src/shared/events';
import type { AssistantChatMessage } from '../../../../src/shared/messages';
import { DEFAULT_SETTINGS, type RetrySettings } from '../../../../src/shared/settings';

export const T0 = Date.UTC(2025, 0, 1, 12);

export type DecisionEntry = Parameters<RetryHost['records']['decided']>[0];
export type ChainEnd = Parameters<RetryHost['records']['closed']>[1];

/** The session's side of the controller, recorded: events, decisions (with the turn each was tied to), chains. */
export class FakeHost implements RetryHost {
  retry: RetrySettings = { ...DEFAULT_SETTINGS.retry, baseDelayMs: 1000, jitterMaxMs: 0 };
  events: RetryEvent[] = [];
  /** Each decision with the newest turn of the runtime context when it was made (what the session ties it to). */
  decisions: (DecisionEntry & { turn: string | null })[] = [];
  /** The runtime context's turn ids, newest last. */
  context: string[] = ['user-1'];
  /** The order of the controller's calls into the host. */
  calls: string[] = [];
  usageResults: UsageLimitResult[] = [];
  usageMarks: { retryAfterMs?: number }[] = [];
  /** The fallback models the controller switched to, in order. */
  modelSwitches: ModelSwitch[] = [];
  continueCalls = 0;
  continueError: Error | undefined;
  chains = new Map<string, ChainEnd | 'open'>();
  /** Each chain's scheduled time, as the controller last stored it. */
  schedules = new Map<string, number | null>();
  /** Set by the offline tests: the network probe the controller asks before counting a connection failure. */
  network?: NetworkProbe;
  private ids = 0;

  settings = () => this.retry;
  now = () => Date.now();
  emit = (event: RetryEvent) => {
    this.events.push(event);
    this.calls.push(event.type);
  };
  run: RetryRun = {
    trimTrailingError: () => {
      this.calls.push('trim');
      this.context.pop();
    },
    continue: () => {
      this.continueCalls += 1;
      this.calls.push('continue');
      return this.continueError ? Promise.reject(this.continueError) : Promise.resolve();
    },
  };
  limits: UsageLimits = {
    reached: (options) => {
      this.usageMarks.push(options);
      return this.usageResults.shift() ?? { switched: false, earliestFreeAt: null };
    },
    switchModel: (change) => {
      this.modelSwitches.push(change);
      this.calls.push('switch model');
    },
  };
  records: ChainRecords = {
    newChainId: () => `chain-${++this.ids}`,
    opened: (chainId) => void this.chains.set(chainId, 'open'),
    reopened: (chainId) => void this.chains.set(chainId, 'open'),
    closed: (chainId, end) => void this.chains.set(chainId, end),
    scheduled: (chainId, at) => void this.schedules.set(chainId, at),
    decided: (entry) => {
      this.decisions.push({ ...entry, turn: this.context.at(-1) ?? null });
      this.calls.push('decision');
    },
    /** One transaction in the store; here the writes simply run. */
    batch: (writes) => writes(),
  };

  starts = () => this.events.filter((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
  ends = () => this.events.filter((e) => e.type === 'auto_retry_end');
}

export const SERVER_ERROR: Classification = {
  category: 'server_error',
  errorType: 'ModelServerError',
  source: 'pattern',
};
export const usageLimit = (retryAfterMs: number): Classification => ({
  category: 'usage_limit',
  errorType: 'ModelUsageLimitError',
  retryAfterMs,
  source: 'pattern',
});
export const rateLimit = (retryAfterMs: number): Classification => ({
  category: 'rate_limit',
  errorType: 'ModelRateLimitError',
  retryAfterMs,
  source: 'structured',
});

export function assistant(stopReason: AssistantChatMessage['stopReason'], errorMessage?: string): AssistantChatMessage {
  return {
    role: 'assistant',
    content: [],
    provider: 'p',
    model: 'm',
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
    stopReason,
    ...(errorMessage !== undefined ? { errorMessage } : {}),
    timestamp: T0,
  };
}

/** Vitest's fake clock (timers and Date) at T0 around every test of the calling file or block. */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
