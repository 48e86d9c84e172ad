// Fallback models (docs/retry-policy.md, "Fallback models"): lifecycle step 5 switches to the next
// model of the person's fallback list when a usage limit leaves the current provider without a
// usable key, and — failover (failover.ts) — when an outage used up a model's attempts.
// selectFallback is the rule (pure); ModelRoute is the session's memory of it — which model is
// active, which ones hit a limit — so a usage-limit switch holds for the rest of the session and a
// failover for the prompt (unless providers.keepFailoverModel). The
// composition root owns one ModelRoute and hands AgentSession a FallbackPort: the retry controller
// asks for the next model while it decides, and switches to it once it has decided.
import type { ModelRef } from '../../../shared/settings';

export type { ModelRef };

export const sameModel = (a: ModelRef, b: ModelRef): boolean => a.provider === b.provider && a.model === b.model;

/** How a model is named in reasons and messages: "openai/gpt-4o". */
export const modelPath = (ref: ModelRef): string => `${ref.provider}/${ref.model}`;

export type SkipReason = 'current' | 'limited' | 'no_key';

export interface FallbackInput {
  /** The first choice, then the fallback list, in the person's order. */
  order: readonly ModelRef[];
  current: ModelRef;
  /** Models that hit a usage limit in this session. */
  limited: readonly ModelRef[];
  /** A key of this model's provider that no usage limit blocks for this model. */
  hasUsableKey: (ref: ModelRef) => boolean;
}

export interface FallbackChoice {
  next: ModelRef | null;
  /** Every entry after the current one that was passed over, and why. */
  skipped: { ref: ModelRef; reason: SkipReason }[];
}

/**
 * The next model to switch to: the first entry after the current one (from the start when the
 * current model is not in the list) that is not the current model, has not hit a usage limit in
 * this session and whose provider has a usable key. Never wraps around: the list is an order of
 * preference, and what came before the current model was already given up.
 */
export function selectFallback(input: FallbackInput): FallbackChoice {
  const at = input.order.findIndex((ref) => sameModel(ref, input.current));
  const skipped: FallbackChoice['skipped'] = [];
  for (const ref of input.order.slice(at + 1)) {
    const reason: SkipReason | null = sameModel(ref, input.current)
      ? 'current'
      : input.limited.some((l) => sameModel(l, ref))
        ? 'limited'
        : input.hasUsableKey(ref)
          ? null
          : 'no_key';
    if (reason === null) return { next: ref, skipped };
    skipped.push({ ref, reason });
  }
  return { next: null, skipped };
}

export type FallbackResult =
  | { kind: 'switched'; from: ModelRef; to: ModelRef }
  /** The list is used up: the chain ends with `message`, which names what was tried. */
  | { kind: 'exhausted'; message: string }
  /** No fallback list: the usage limit is waited out as before. */
  | { kind: 'none' };

/** Lifecycle step 5's second switch, as the session sees it (AgentSessionOptions.fallback). */
export interface FallbackPort {
  /** The next model of the fallback list after a usage limit on the current one; nothing is applied yet. */
  next(): FallbackResult;
  /** Switch to the model `next` chose: the session's agent is pointed at it. */
  use(to: ModelRef): void;
  /** Failover: the next usable model after the current one after an outage; nothing is applied yet. */
  nextAfterOutage?(): FallbackResult;
  /** Switch to the model nextAfterOutage chose, until the next prompt of the person's. */
  useAfterOutage?(to: ModelRef): void;
  /** A new prompt of the person's: back from a failover to the model before it (unless the setting keeps it). */
  newPrompt?(): void;
}

export interface ModelRoutePort {
  /** The person's first choice (settings.provider). */
  firstChoice(): ModelRef;
  /** The fallback list (settings.providers.fallback). */
  fallbackList(): readonly ModelRef[];
  hasUsableKey(ref: ModelRef): boolean;
}

/** The exhaustion message: "Usage limit on every model tried: a, b; skipped c (no usable key)". */
export function exhaustedMessage(tried: readonly ModelRef[], skipped: FallbackChoice['skipped']): string {
  const names = (refs: readonly ModelRef[]) => refs.map(modelPath).join(', ');
  const noKey = skipped.filter((s) => s.reason === 'no_key').map((s) => s.ref);
  const tail = noKey.length > 0 ? `; skipped ${names(noKey)} (no usable key)` : '';
  return `Usage limit on every model of the fallback list: tried ${names(tried)}${tail}`;
}

/** Which model a session talks to, and the usage-limited ones it has left behind. */
export class ModelRoute {
  private active: ModelRef | null = null;
  /** The model a failover moved to, for the prompt it happened in; it wins over `active`. */
  private outage: ModelRef | null = null;
  private limited: ModelRef[] = [];

  constructor(private readonly port: ModelRoutePort) {}

  /** The model in use: the one switched to, else the first choice. */
  current(): ModelRef {
    return this.outage ?? this.active ?? this.port.firstChoice();
  }

  /**
   * Lifecycle step 5, after the credential store found no other key: the current model is marked
   * limited and the next fallback, if any, chosen; switchTo makes it current.
   */
  onUsageLimit(): FallbackResult {
    const order = this.order();
    if (order.length < 2) return { kind: 'none' };
    const from = this.current();
    if (!this.limited.some((ref) => sameModel(ref, from))) this.limited.push(from);
    const choice = this.choose(order, from);
    if (!choice.next) return { kind: 'exhausted', message: exhaustedMessage(this.limited, choice.skipped) };
    return { kind: 'switched', from, to: choice.next };
  }

  /**
   * Failover (failover.ts): an outage used up the current model's attempts; the next usable model
   * after it, by the same rule. The model is not marked limited: an outage passes.
   */
  onOutage(): FallbackResult {
    const order = this.order();
    if (order.length < 2) return { kind: 'none' };
    const from = this.current();
    const choice = this.choose(order, from);
    return choice.next ? { kind: 'switched', from, to: choice.next } : { kind: 'none' };
  }

  /** The model onUsageLimit chose becomes the one in use. */
  switchTo(to: ModelRef): void {
    this.active = to;
    this.outage = null;
  }

  /** The model onOutage chose is used until endOutage. */
  switchForOutage(to: ModelRef): void {
    this.outage = to;
  }

  /** A new prompt: back from a failover; true when the model in use changed. */
  endOutage(): boolean {
    const changed = this.outage !== null;
    this.outage = null;
    return changed;
  }

  private order(): ModelRef[] {
    return dedupe([this.port.firstChoice(), ...this.port.fallbackList()]);
  }

  private choose(order: readonly ModelRef[], current: ModelRef): FallbackChoice {
    return selectFallback({
      order,
      current,
      limited: this.limited,
      hasUsableKey: (ref) => this.port.hasUsableKey(ref),
    });
  }

  /** A new session: back to the first choice when the setting says so, with a clean slate either way. */
  newSession(backToFirstChoice: boolean): void {
    if (backToFirstChoice) this.active = null;
    this.outage = null;
    this.limited = [];
  }

  /** The person chose another first choice (settings, RPC set_model): it applies at once. */
  firstChoiceChanged(): void {
    this.active = null;
    this.outage = null;
    this.limited = [];
  }
}

function dedupe(refs: readonly ModelRef[]): ModelRef[] {
  return refs.filter((ref, i) => refs.findIndex((other) => sameModel(other, ref)) === i);
}
