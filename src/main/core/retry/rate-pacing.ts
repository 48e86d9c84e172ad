// Rate-limit pacing (docs/retry-policy.md, "Rate-limit pacing"): a provider's rate-limit headers
// (x-ratelimit-remaining-* / -reset-*, anthropic-ratelimit-*, retry-after) say when the next
// request would be refused; the next prompt to that provider waits until then instead of hitting a
// known 429, unless the person presses "Send anyway". RatePacer remembers what each provider said;
// PacingHold is the one cancellable wait; PromptPacing joins them for AgentSession, which observes
// every finished message and asks before each prompt.
import type { AttachmentUpload } from '../../../shared/attachments';
import type { ErrorCategory } from '../../../shared/error-category';
import type { PacingEvent, PacingWait } from '../../../shared/events';
import type { AssistantChatMessage } from '../../../shared/messages';
import { abortableSleep, type Sleep } from './retry-chain';
import { providerFactsOf } from './provider-facts';
import { exhaustedLimitsResetMs, retryAfterHeaderMs } from './retry-hints';

export interface PacingFacts {
  status?: number;
  /** Lower-cased rate-limit headers, as the HTTP observer keeps them. */
  headers?: Record<string, string>;
}

/**
 * How long the next request must wait not to be refused, ms; 0 when no limit is known to be used
 * up. A refusal's retry-after (429, 503) counts; on any response, so does every limit whose
 * remaining count is 0, until its reset — the longest of them, since each would refuse.
 */
export function pacingWaitMs(facts: PacingFacts, now: number): number {
  const refused = facts.status === 429 || facts.status === 503;
  const retryAfter = refused ? retryAfterHeaderMs(facts.headers, now) : undefined;
  const resets = exhaustedLimitsResetMs(facts.headers, now);
  return Math.max(0, Math.round(Math.max(retryAfter ?? 0, resets ?? 0)));
}

/** What each provider's (each model's) latest response said about its limits. */
export class RatePacer {
  private readonly until = new Map<string, number>();
  /** The keys whose hold a usage limit set (a plan's window, hours long), not a per-minute rate limit. */
  private readonly usage = new Set<string>();

  /**
   * A response from `provider` (success or failure) arrived with these facts; `category`: how its
   * failure was classified (null or absent for a success).
   */
  observe(provider: string, facts: PacingFacts | undefined, now: number, category?: ErrorCategory | null): void {
    if (!facts || facts.status === undefined) return;
    const wait = pacingWaitMs(facts, now);
    if (wait > 0) {
      this.until.set(provider, now + wait);
      if (category === 'usage_limit') this.usage.add(provider);
      else this.usage.delete(provider);
    }
    // A response that was served with room left supersedes an older "used up".
    else if (facts.status < 400) this.until.delete(provider);
  }

  /** Which limit holds `provider`: a usage limit, or a rate limit (the default). */
  limitOf(provider: string): 'usage' | 'rate' {
    return this.usage.has(provider) ? 'usage' : 'rate';
  }

  /** How long a prompt to `provider` must wait now, ms (0: send at once). */
  waitMs(provider: string, now: number): number {
    const until = this.until.get(provider);
    if (until === undefined) return 0;
    if (until <= now) {
      this.until.delete(provider);
      return 0;
    }
    return until - now;
  }

  /** The person chose to send anyway: forget the limit rather than hold the next prompt again. */
  forget(provider: string): void {
    this.until.delete(provider);
  }
}

export type PacingOutcome = 'reset' | 'sent_anyway' | 'cancelled';

/** The one wait of a held prompt: runs out, is cut short by "Send anyway", or is cancelled by Stop. */
export class PacingHold {
  private current: { sleep: Sleep; controller: AbortController; sentAnyway: boolean } | null = null;

  get isWaiting(): boolean {
    return this.current !== null;
  }

  async wait(ms: number): Promise<PacingOutcome> {
    const controller = new AbortController();
    const entry = { sleep: abortableSleep(ms, controller.signal), controller, sentAnyway: false };
    this.current = entry;
    try {
      await entry.sleep.promise;
      return entry.sentAnyway ? 'sent_anyway' : 'reset';
    } catch {
      return 'cancelled';
    } finally {
      this.current = null;
    }
  }

  sendAnyway(): boolean {
    if (!this.current) return false;
    this.current.sentAnyway = true;
    return this.current.sleep.skip();
  }

  cancel(): boolean {
    if (!this.current) return false;
    this.current.controller.abort();
    return true;
  }
}

// Limits are kept per model: providers count them per model (or model family), and a usage limit on
// one model must not hold prompts to the fallback model of the same provider.
const limitKey = (m: { provider: string; model: string }): string => `${m.provider}/${m.model}`;

/**
 * The session's pacing: what providers said, and the prompt held back now (if any). `pacer` is
 * shared by every chat of the app, so a limit one chat hit holds the others' prompts to that model too.
 */
export class PromptPacing {
  private readonly hold = new PacingHold();
  private held: PacingWait | null = null;

  constructor(
    private readonly emit: (event: PacingEvent) => void,
    private readonly now: () => number,
    private readonly pacer = new RatePacer(),
  ) {}

  /** The prompt waiting for a reset, for the snapshot; null when none waits. */
  get current(): PacingWait | null {
    return this.held;
  }

  get isWaiting(): boolean {
    return this.hold.isWaiting;
  }

  /**
   * Every finished assistant message: its response's rate-limit headers, if the HTTP observer saw
   * any; `category`: its failure's classification (a usage limit's hold says so), null for a success.
   */
  observe(message: AssistantChatMessage, category: ErrorCategory | null = null): void {
    this.pacer.observe(limitKey(message), providerFactsOf(message), this.now(), category);
  }

  /**
   * Before a prompt goes to this model: wait out a known limit. False when the person stopped it.
   * `attachments`: its files as attached, held with the text so that a Stop gives them back.
   */
  async beforePrompt(
    model: { provider: string; id: string },
    text: string,
    attachments: readonly AttachmentUpload[] = [],
  ): Promise<boolean> {
    const now = this.now();
    const key = limitKey({ provider: model.provider, model: model.id });
    const waitMs = this.pacer.waitMs(key, now);
    if (waitMs <= 0) return true;
    const provider = model.provider;
    const files = attachments.length ? { attachments: [...attachments] } : {};
    const limit = this.pacer.limitOf(key) === 'usage' ? { limit: 'usage' as const } : {};
    this.held = { provider, model: model.id, text, ...files, until: now + waitMs, waitMs, ...limit };
    this.emit({ type: 'rate_limit_wait', ...this.held });
    const outcome = await this.hold.wait(waitMs);
    this.held = null;
    if (outcome === 'sent_anyway') this.pacer.forget(key);
    this.emit({ type: 'rate_limit_wait_end', provider, outcome });
    return outcome !== 'cancelled';
  }

  sendAnyway(): boolean {
    return this.hold.sendAnyway();
  }

  cancel(): boolean {
    return this.hold.cancel();
  }
}
