// The liveness of one provider request (docs/retry-policy.md, "Liveness: silence means no bytes"):
// every byte re-arms the silence timer, keep-alives alone are bounded by a limit of their own, and a
// local server gets a first-token wait during which a liveness probe, not silence, decides. Pure
// timers and callbacks — the HTTP layer feeds it bytes through the guarded stream, and the probe is a
// port (src/main/node/liveness-probe.ts). Used by guarded-stream.ts, one watch per request.

import { NO_WORDS_TIMEOUT } from '../../../shared/error-category';

export const TIMEOUT_MESSAGE_PREFIX = 'Request timed out';

/** What a local server's liveness probe found: any HTTP answer, a refused connection, or no answer in time. */
export type ProbeAnswer = 'alive' | 'refused' | 'silent';

/** A local server (docs/retry-policy.md, "Two clocks"): its first-token wait and how to ask whether it lives. */
export interface LocalServerLiveness {
  /** The longest the server may work on the prompt before its first word, ms. */
  firstTokenWaitMs: number;
  /** Between two probes, ms. */
  probeEveryMs: number;
  /** One cheap GET of the server (its models endpoint); never rejects. */
  probe(signal: AbortSignal): Promise<ProbeAnswer>;
  /** Where the server is, for the failure's text. */
  baseUrl: string;
}

export interface LivenessLimits {
  /** Silence after which a request is aborted (retry.timeoutMs), ms. */
  idleMs: number;
  /** Bytes without words (keep-alives) for this long end the request (retry.keepAliveLimitMinutes), ms. */
  keepAliveLimitMs: number;
  /** Set for a local server: its first-token clock replaces silence until the first word. */
  local?: LocalServerLiveness;
}

/** How a request ended for want of liveness: the category the text is classified as, and the text. */
export interface LivenessFailure {
  kind: 'timeout' | 'connection';
  message: string;
}

/** While a local server works on the prompt, what the session shows ("Processing the prompt… 45 s"). */
export type PromptWaitUpdate =
  { state: 'start'; startedAt: number } | { state: 'progress'; processed: number; total: number } | { state: 'end' };

/** Probes that found no answer in a row before the server counts as gone (a refusal counts at once). */
const SILENT_PROBES_TO_FAIL = 3;

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** The error text of a request that brought no bytes at all for `ms`. */
export function noBytesMessage(ms: number): string {
  return `${TIMEOUT_MESSAGE_PREFIX}: no bytes for ${seconds(ms)}`;
}

/** The error text of a request whose connection lived (headers, keep-alives) but brought no words for `ms`. */
export function noWordsMessage(ms: number): string {
  return `${TIMEOUT_MESSAGE_PREFIX}: ${NO_WORDS_TIMEOUT} for ${seconds(ms)}`;
}

/**
 * One request's clocks. `bytes()` for every piece of the response, `words()` once the model's output
 * began; `onFail` is called at most once, and `dispose()` stops everything.
 */
export class LivenessWatch {
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly ceiling: ReturnType<typeof setTimeout> | undefined;
  private probeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly probeAbort = new AbortController();
  private connected = false;
  private hasWords = false;
  private lastBytesAt: number;
  private silentProbes = 0;
  private done = false;
  /** The waiting row was announced (onPromptWait start), so its end is owed. */
  private waitShown = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly limits: LivenessLimits,
    private readonly onFail: (failure: LivenessFailure) => void,
    private readonly onPromptWait?: (update: PromptWaitUpdate) => void,
  ) {
    this.lastBytesAt = this.startedAt;
    const { local } = limits;
    if (local) {
      this.ceiling = setTimeout(() => this.ceilingReached(local.firstTokenWaitMs), local.firstTokenWaitMs);
      this.scheduleProbe(local);
    } else {
      this.armIdle();
      this.ceiling = setTimeout(() => this.ceilingReached(limits.keepAliveLimitMs), limits.keepAliveLimitMs);
    }
  }

  /** A piece of the response arrived (headers, a comment line, a ping, an empty delta, a parsed event). */
  bytes(): void {
    if (this.done) return;
    this.connected = true;
    this.lastBytesAt = Date.now();
    if (!this.limits.local || this.hasWords) this.armIdle();
  }

  /** The model's output began: from now on only silence counts, for every provider. */
  words(): void {
    this.bytes();
    if (this.done || this.hasWords) return;
    this.hasWords = true;
    this.stopFirstTokenClock();
    this.armIdle();
    if (this.waitShown) this.onPromptWait?.({ state: 'end' });
  }

  /** The server said how far it is with the prompt (llama.cpp's prompt_progress). */
  progress(processed: number, total: number): void {
    if (this.done || this.hasWords || !this.limits.local || total <= 0) return;
    this.onPromptWait?.({ state: 'progress', processed, total });
  }

  dispose(): void {
    if (this.done) return;
    this.done = true;
    if (this.idle) clearTimeout(this.idle);
    this.stopFirstTokenClock();
    if (!this.hasWords && this.waitShown) this.onPromptWait?.({ state: 'end' });
  }

  private stopFirstTokenClock(): void {
    if (this.ceiling) clearTimeout(this.ceiling);
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeAbort.abort();
  }

  private armIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    const { idleMs } = this.limits;
    this.idle = setTimeout(() => this.fail({ kind: 'timeout', message: noBytesMessage(idleMs) }), idleMs);
  }

  /** The first-token wait (local) or the keep-alive limit (cloud) ran out before any word. */
  private ceilingReached(ms: number): void {
    if (this.hasWords) return;
    this.fail({ kind: 'timeout', message: this.connected ? noWordsMessage(ms) : noBytesMessage(ms) });
  }

  private scheduleProbe(local: LocalServerLiveness): void {
    this.probeTimer = setTimeout(() => void this.probeOnce(local), local.probeEveryMs);
  }

  private async probeOnce(local: LocalServerLiveness): Promise<void> {
    if (this.done || this.hasWords) return;
    if (!this.waitShown) {
      // Shown from the first probe on, so a quick answer never flashes a waiting row.
      this.waitShown = true;
      this.onPromptWait?.({ state: 'start', startedAt: this.startedAt });
    }
    const answer = await local.probe(this.probeAbort.signal);
    if (this.done || this.hasWords) return;
    this.silentProbes = answer === 'silent' ? this.silentProbes + 1 : 0;
    if (answer === 'refused' || this.silentProbes >= SILENT_PROBES_TO_FAIL) {
      const how = answer === 'refused' ? 'refused the connection' : 'stopped answering';
      const quiet = seconds(Date.now() - this.lastBytesAt);
      this.fail({
        kind: 'connection',
        message: `Connection error: the local server at ${local.baseUrl} ${how} while the prompt was processed (no bytes for ${quiet})`,
      });
      return;
    }
    this.scheduleProbe(local);
  }

  private fail(failure: LivenessFailure): void {
    if (this.done) return;
    this.onFail(failure);
    this.dispose();
  }
}
