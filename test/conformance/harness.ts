// The conformance harness: one provider's API served by the simulator over real HTTP, and the
// app's own composition root pointed at it as `--provider P --base-url <simulator>` would. Each
// table row is one prompt through the whole path — guarded stream → pi-ai → the provider's real
// SDK → HTTP → HTTP facts → classifier → decision table — and reports the category and wait hint
// of the first failure, every decision the session logged, and what reached the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { classifyFailure, type Classification } from '../../src/main/core/retry/classify-error';
import { providerFailure } from '../../src/main/core/llm/failed-message';
import { AppServices } from '../../src/main/node/app-services';
import { SimulatorServer, type RecordedRequest } from '../../src/main/node/simulator/simulator-server';
import type { WireName } from '../../src/main/node/simulator/wire';
import type { ErrorCategory } from '../../src/shared/error-category';
import type { AutoRetryEndEvent, SessionEvent } from '../../src/shared/events';
import type { DecisionAction, RetryDecisionRecord } from '../../src/shared/history';
import type { AssistantChatMessage } from '../../src/shared/messages';

export type ConformanceProvider = 'anthropic' | 'openai' | 'google' | 'openai-compatible';

/** One real error shape and what the app must make of it. */
export interface Row {
  /** What the provider does, as a simulator script; `step*` lets the decision table say when to stop. */
  script: string;
  category: ErrorCategory;
  /** The wait the provider asked for, ms (a [min, max] range when it is read from a clock stamp); null = none. */
  hint: number | readonly [number, number] | null;
  /**
   * The decision on the first failure. Each row is a session's first prompt, so an overflow has
   * nothing older to summarise and stops (`abort`), rather than going to compaction
   * (docs/retry-policy.md, "Context overflow: the compaction path").
   */
  decision: DecisionAction;
  /** Requests that reached the server for the one prompt. */
  requests: number;
  /** For the rows about silence: retry.timeoutMs for this row (others get a generous one, see FAST_RETRY). */
  silenceMs?: number;
}

export interface Observed {
  classification: Classification | undefined;
  decisions: RetryDecisionRecord[];
  requests: RecordedRequest[];
  ends: AutoRetryEndEvent[];
}

/**
 * Tiny waits, so every row runs in milliseconds; the hints of the rows are small for the same reason.
 * The silence timeout stays generous: a cold SDK on a loaded machine must not read as a timeout.
 */
const FAST_RETRY = {
  retry: {
    baseDelayMs: 1,
    jitterMaxMs: 0,
    timeoutMs: 10_000,
    policy: { timeout: { delayMs: 1 }, invalid_output: { delayMs: 1 } },
  },
};

const MODELS: Record<ConformanceProvider, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4o',
  google: 'gemini-2.5-flash',
  'openai-compatible': 'llama3.2',
};

/** Keys from the environment would join the run key and change what a usage limit does. */
const ENV_KEYS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN', 'OPENAI_API_KEY', 'GEMINI_API_KEY'];

export class ConformanceApp {
  private readonly events: SessionEvent[] = [];
  /** Each failed attempt classified the moment it ended, as the session did (hints read from clock stamps age). */
  private readonly failures: Classification[] = [];
  /** Set once AppServices.create resolves; no event arrives before that. */
  services!: AppServices;

  private constructor(
    readonly simulator: SimulatorServer,
    private readonly dataDir: string,
  ) {}

  static async start(provider: ConformanceProvider, apiKey = 'sk-conformance-0001'): Promise<ConformanceApp> {
    for (const name of ENV_KEYS) vi.stubEnv(name, '');
    vi.stubEnv('OPENAI_LOG', 'off');
    const simulator = new SimulatorServer({ chunkDelayMs: 1 });
    const v1 = await simulator.start();
    const root = v1.replace(/\/v1$/, '');
    // Each SDK's base URL as its provider documents it: Anthropic's root, OpenAI's …/v1, Gemini's …/v1beta.
    const baseUrl = provider === 'anthropic' ? root : provider === 'google' ? `${root}/v1beta` : v1;
    const dataDir = mkdtempSync(join(tmpdir(), `resolute-conformance-${provider}-`));
    const app = new ConformanceApp(simulator, dataDir);
    app.services = await AppServices.create({
      host: 'rpc',
      version: 'conformance',
      dataDir,
      provider,
      model: MODELS[provider],
      baseUrl,
      apiKey,
      overlay: FAST_RETRY,
      publish: (event) => app.observe(event),
    });
    return app;
  }

  private observe(event: SessionEvent): void {
    this.events.push(event);
    // Each row starts as if the provider had said nothing before: a rate limit that the previous
    // row's headers reported used up is not waited for (rate-limit pacing has its own tests).
    if (event.type === 'rate_limit_wait') queueMicrotask(() => this.services.session.sendAnyway());
    const message = event.type === 'message_end' ? event.message : undefined;
    if (message?.role === 'assistant' && (message.stopReason === 'error' || message.stopReason === 'aborted')) {
      const contextWindow = this.services.session.model?.contextWindow;
      this.failures.push(classifyFailure(providerFailure(message as AssistantChatMessage, contextWindow)));
    }
  }

  /** One prompt against a fresh script; resolves when the retry chain (if any) has ended. */
  async run(script: string, silenceMs?: number): Promise<Observed> {
    this.services.settings.update({ retry: { timeoutMs: silenceMs ?? FAST_RETRY.retry.timeoutMs } });
    this.services.domains.session.newSession();
    this.simulator.setScript(script);
    this.simulator.clearRequests();
    const from = this.events.length;
    const failedFrom = this.failures.length;
    await this.services.session.prompt(`conformance: ${script}`);
    const seen = this.events.slice(from);
    return {
      classification: this.failures[failedFrom],
      decisions: seen.flatMap((event) => (event.type === 'retry_decision' ? [event.decision] : [])),
      requests: this.simulator.requests.slice(),
      ends: seen.flatMap((event) => (event.type === 'auto_retry_end' ? [event] : [])),
    };
  }

  async stop(): Promise<void> {
    await this.services.dispose();
    await this.simulator.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  }
}

/** Asserts one row: category, hint, the first decision (and that its wait honours the hint), requests. */
export function expectRow(observed: Observed, row: Row): void {
  const { classification, decisions, requests } = observed;
  expect(classification?.category, 'category').toBe(row.category);
  const hint = classification?.retryAfterMs;
  if (row.hint === null) expect(hint, 'hint').toBeUndefined();
  else if (typeof row.hint === 'number') expect(hint, 'hint').toBe(row.hint);
  else {
    expect(hint, 'hint').toBeGreaterThanOrEqual(row.hint[0]);
    expect(hint, 'hint').toBeLessThanOrEqual(row.hint[1]);
  }
  const first = decisions[0];
  expect(first?.action, 'decision').toBe(row.decision);
  expect(first?.category, 'decided category').toBe(row.category);
  // baseDelayMs 1 and no jitter: a retry waits exactly the hint when there is one (a range: about it).
  if (row.decision === 'retry' && typeof row.hint === 'number')
    expect(first.waitSeconds * 1000).toBe(Math.max(row.hint, 1));
  if (row.decision === 'retry' && Array.isArray(row.hint))
    expect(first.waitSeconds * 1000).toBeLessThanOrEqual(row.hint[1]);
  expect(requests.length, 'requests at the server').toBe(row.requests);
}

/** One provider's table: a fresh app for the provider, one test per row, every request on the provider's API. */
export function describeTable(
  title: string,
  provider: ConformanceProvider,
  api: WireName,
  rows: ReadonlyArray<readonly [string, Row]>,
  apiKey?: string,
): void {
  describe(title, () => {
    let app: ConformanceApp;
    beforeAll(async () => {
      app = await ConformanceApp.start(provider, apiKey);
    });
    afterAll(() => app.stop());

    it.each(rows)('%s', async (_name, row) => {
      const observed = await app.run(row.script, row.silenceMs);
      expectRow(observed, row);
      expect(observed.requests.every((request) => request.api === api)).toBe(true);
      // No key but the person's reached the server (a usage limit never falls back to a built-in one).
      if (apiKey) expect(new Set(observed.requests.map((request) => request.apiKey))).toEqual(new Set([apiKey]));
    });
  });
}
