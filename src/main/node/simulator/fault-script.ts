// The fault script of the built-in simulator: its grammar, the list of steps, and a cursor that
// hands out one step per request. Pure (no I/O): the wire formats render the steps
// (wire-*.ts, provider-shapes.ts), SimulatorServer applies them, and the settings pane can
// validate a script with parseFaultScript.
//
// Grammar (the README quotes this block):
//   script  := part ( sep part )*        sep := "," or whitespace; an empty script = always ok
//   part    := step | "@" model          "@model" sends the steps after it to that model's requests only
//   step    := name [ ":" seconds ] [ "*" [ count ] ]
//   name    := generic | provider "." shape      e.g. 503, stream_error, anthropic.spend_limit
//   name*N  repeats the step N times;  name*  repeats it forever (nothing may follow it)
//   seconds (the steps that carry a retry hint, and the held replies) is a non-negative number, e.g. 429:2, 429:0.05
//   `prefill:s` says nothing at all for s seconds (a local server processing a long prompt), then answers;
//   `keepalive:s` sends its headers, then an SSE comment every second for s seconds, then answers;
//   `progress:s` is llama.cpp with return_progress: prompt_progress chunks for s seconds, then the answer.
//   `tokens` streams a reply of 2,000 tokens one token per event at 2,000 tokens/s, as real providers do.
//   Steps are consumed one per request; once the list is used up every request gets `ok`.
//   Each "@model" has its own list, consumed by the requests for that model; the steps before any
//   "@model" serve every other model. Names are case-insensitive, model ids are not.
//   Examples: "429*2, ok" = rate-limited twice, then an answer;
//   "@resolute-sim-1 usage_limit*" = that model is over its usage limit, the others answer.
//   tool:NAME:ARGS  the model calls tool NAME with the arguments ARGS, sent as written (JSON, or
//   anything else to script invalid arguments); commas and spaces inside {…}, […] or "…" belong
//   to ARGS. The next step answers once the tool result is in, e.g. 'tool:bash:{"command":"ls"}, ok'.
//
// Generic steps are answered in the words of the API the request came to (OpenAI Chat
// Completions or Responses, Anthropic Messages, Gemini); `provider.shape` steps send one
// provider's exact error as it is documented or was reported, whichever API was called.

// Listed, not taken from an object's keys: integer-like keys ("429") would sort first there.
export const GENERIC_FAULTS = [
  'ok',
  'slow',
  '429',
  '500',
  '502',
  '503',
  '504',
  'overloaded',
  'usage_limit',
  'reset',
  'drop',
  'stall',
  'malformed',
  'overflow',
  'auth',
  'bad_request',
  'permission',
  'not_found',
  'too_large',
  'stream_error',
  'proxy_502',
  'proxy_503',
  'ok_limited',
  'tokens',
  'prefill',
  'keepalive',
  'progress',
] as const;

export const PROVIDER_FAULTS = [
  'anthropic.spend_limit',
  'anthropic.credit_low',
  'anthropic.usage_cap',
  'anthropic.rate_limit_reset',
  'openai.insufficient_quota',
  'openai.rate_limit_tpm',
  'openai.rate_limit_rpm',
  'openai.rate_limit_rpd',
  'openai.error_event',
  'google.quota_plain',
  'google.high_demand',
] as const;

export const FAULT_KINDS = [...GENERIC_FAULTS, ...PROVIDER_FAULTS] as const;
export type GenericFault = (typeof GENERIC_FAULTS)[number];
export type ProviderFault = (typeof PROVIDER_FAULTS)[number];
export type FaultKind = GenericFault | ProviderFault;
/** A step is a fault (or ok/slow), or a scripted tool call. */
export type StepKind = FaultKind | 'tool';

export interface FaultStep {
  kind: StepKind;
  /** The step as written, without its repeat count (e.g. "429:2"); recorded per request. */
  label: string;
  /** Retry hint in seconds for the steps that carry one (the default when not written), else null. */
  retryAfterSeconds: number | null;
  /** For a held reply (prefill, keepalive, progress): how long it holds before the answer, seconds. */
  holdSeconds?: number;
  /** How many requests this step covers; Infinity for `step*`. */
  times: number;
  /** For `tool`: the tool the model calls and its arguments as sent. */
  tool?: { name: string; arguments: string };
}

/** The steps that carry a retry hint, with the hint they use when none is written (seconds). */
const DEFAULT_HINT_SECONDS: Partial<Record<FaultKind, number>> = {
  ok_limited: 12,
  '429': 1,
  usage_limit: 30,
  'anthropic.rate_limit_reset': 4,
  'openai.rate_limit_tpm': 1,
  'openai.rate_limit_rpm': 20,
  'openai.rate_limit_rpd': 432,
};

/** The held replies (docs/retry-policy.md, "Liveness"), with how long they hold when no seconds are written. */
const DEFAULT_HOLD_SECONDS: Partial<Record<FaultKind, number>> = { prefill: 5, keepalive: 5, progress: 5 };

/** How a step breaks the exchange; the wire formats fill in the bytes. */
export type FaultBehaviour = 'reply' | 'slow' | 'tokens' | 'held' | 'status' | 'broken' | 'stream_error' | 'tool_call';

export function faultBehaviour(kind: StepKind): FaultBehaviour {
  if (kind === 'tool') return 'tool_call';
  if (kind === 'prefill' || kind === 'keepalive' || kind === 'progress') return 'held';
  if (kind === 'ok' || kind === 'ok_limited') return 'reply';
  if (kind === 'slow') return 'slow';
  if (kind === 'tokens') return 'tokens';
  if (kind === 'reset' || kind === 'drop' || kind === 'stall' || kind === 'malformed') return 'broken';
  if (kind === 'stream_error' || kind === 'openai.error_event') return 'stream_error';
  return 'status';
}

const MAX_REPEAT = 1_000_000;
// A week: past the 24 h a retry can be scheduled for (docs/retry-policy.md, "Scheduled retries"), to script a wait beyond it.
const MAX_RETRY_AFTER_SECONDS = 604_800;
const STEP_PATTERN = /^([a-z0-9_]+(?:\.[a-z0-9_]+)?)(?::([^*]*))?(\*(\d*))?$/;

export const OK_STEP: FaultStep = { kind: 'ok', label: 'ok', retryAfterSeconds: null, times: Infinity };

const isFaultKind = (name: string): name is FaultKind => (FAULT_KINDS as readonly string[]).includes(name);

type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

function parseSeconds(kind: FaultKind, raw: string | undefined, token: string): ParseResult<number | null> {
  const fallback = DEFAULT_HINT_SECONDS[kind] ?? DEFAULT_HOLD_SECONDS[kind];
  if (raw === undefined) return { ok: true, value: fallback ?? null };
  if (fallback === undefined) {
    const takers = [...Object.keys(DEFAULT_HINT_SECONDS), ...Object.keys(DEFAULT_HOLD_SECONDS)].join(', ');
    return { ok: false, error: `Step "${token}": "${kind}" takes no ":seconds" (only ${takers} do).` };
  }
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds > MAX_RETRY_AFTER_SECONDS) {
    const what = DEFAULT_HOLD_SECONDS[kind] === undefined ? 'the retry hint' : 'the hold';
    const error = `Step "${token}": ${what} must be a number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}.`;
    return { ok: false, error };
  }
  return { ok: true, value: seconds };
}

function parseTimes(star: string | undefined, raw: string | undefined, token: string): ParseResult<number> {
  if (star === undefined) return { ok: true, value: 1 };
  if (raw === '') return { ok: true, value: Infinity };
  const times = Number(raw);
  if (!Number.isInteger(times) || times < 1 || times > MAX_REPEAT) {
    const error = `Step "${token}": the repeat count must be a whole number from 1 to ${MAX_REPEAT} ("*" alone repeats forever).`;
    return { ok: false, error };
  }
  return { ok: true, value: times };
}

const TOOL_STEP = /^tool:([A-Za-z_][\w-]{0,63}):([\s\S]*)$/i;

function parseToolStep(token: string): ParseResult<FaultStep> {
  const match = TOOL_STEP.exec(token);
  if (!match)
    return {
      ok: false,
      error: `Cannot read step "${token}": expected tool:NAME:ARGS, e.g. tool:bash:{"command":"ls"}.`,
    };
  const [, name, args] = match;
  return {
    ok: true,
    value: { kind: 'tool', label: token, retryAfterSeconds: null, times: 1, tool: { name, arguments: args } },
  };
}

/** Split a script at commas and whitespace, except inside {…}, […] and "…" (a tool step's arguments). */
export function scriptTokens(script: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < script.length; i += 1) {
    const ch = script[i];
    if (inString) {
      current += ch;
      if (ch === '\\' && i + 1 < script.length) current += script[(i += 1)];
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth += 1;
    else if ((ch === '}' || ch === ']') && depth > 0) depth -= 1;
    else if (depth === 0 && /[\s,]/.test(ch)) {
      if (current) tokens.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current) tokens.push(current);
  return tokens;
}

function parseStep(token: string): ParseResult<FaultStep> {
  if (/^tool(?::|$)/i.test(token)) return parseToolStep(token);
  const match = STEP_PATTERN.exec(token.toLowerCase());
  if (!match)
    return { ok: false, error: `Cannot read step "${token}": expected name[:seconds][*count], e.g. "429:2*3".` };
  const [, name, rawSeconds, star, rawTimes] = match;
  if (!isFaultKind(name)) {
    return { ok: false, error: `Unknown step "${name}" in "${token}". Known steps: ${FAULT_KINDS.join(', ')}.` };
  }
  const seconds = parseSeconds(name, rawSeconds, token);
  if (!seconds.ok) return seconds;
  const times = parseTimes(star, rawTimes, token);
  if (!times.ok) return times;
  const label = rawSeconds === undefined ? name : `${name}:${rawSeconds}`;
  if (DEFAULT_HOLD_SECONDS[name] !== undefined) {
    const value = { kind: name, label, retryAfterSeconds: null, holdSeconds: seconds.value ?? 0, times: times.value };
    return { ok: true, value };
  }
  return { ok: true, value: { kind: name, label, retryAfterSeconds: seconds.value, times: times.value } };
}

/** A parsed script: the steps for every model, and the lists of the models named with "@model". */
export interface ParsedScript {
  steps: FaultStep[];
  byModel: Record<string, FaultStep[]>;
}

const MODEL_TOKEN = /^@([A-Za-z0-9][\w.:/-]{0,199})$/;

/** Parses a fault script; never throws. The error names the token it could not read. */
export function parseFaultScript(script: string): ({ ok: true } & ParsedScript) | { ok: false; error: string } {
  const tokens = scriptTokens(script);
  const parsed: ParsedScript = { steps: [], byModel: {} };
  let list = parsed.steps;
  for (const token of tokens) {
    if (token.startsWith('@')) {
      const model = MODEL_TOKEN.exec(token)?.[1];
      if (!model) return { ok: false, error: `Cannot read "${token}": expected @model, e.g. "@resolute-sim-2".` };
      list = parsed.byModel[model] ??= [];
      continue;
    }
    const previous = list.at(-1);
    if (previous && previous.times === Infinity) {
      const error = `Step "${token}" comes after "${previous.label}*", which repeats forever, so it could never run.`;
      return { ok: false, error };
    }
    const step = parseStep(token);
    if (!step.ok) return step;
    list.push(step.value);
  }
  return { ok: true, ...parsed };
}

/** One list of steps, handed out one per request, then `ok` for ever. */
class StepCursor {
  private index = 0;
  private usedOfCurrent = 0;

  constructor(readonly steps: readonly FaultStep[]) {}

  next(): FaultStep {
    while (this.index < this.steps.length) {
      const step = this.steps[this.index];
      if (this.usedOfCurrent < step.times) {
        this.usedOfCurrent += 1;
        return step;
      }
      this.index += 1;
      this.usedOfCurrent = 0;
    }
    return OK_STEP;
  }

  /** Every step was handed out (a step repeated for ever never is): what follows is `ok`. */
  get isUsedUp(): boolean {
    return this.steps.slice(this.index).every((step, i) => (i === 0 ? this.usedOfCurrent : 0) >= step.times);
  }

  reset(): void {
    this.index = 0;
    this.usedOfCurrent = 0;
  }
}

/** Hands out the steps of a parsed script, one per request (a named model's from its own list). */
export class FaultScript {
  private readonly cursor: StepCursor;
  private readonly modelCursors: Map<string, StepCursor>;

  constructor(
    readonly steps: readonly FaultStep[] = [],
    byModel: Readonly<Record<string, readonly FaultStep[]>> = {},
  ) {
    this.cursor = new StepCursor(steps);
    this.modelCursors = new Map(Object.entries(byModel).map(([model, list]) => [model, new StepCursor(list)]));
  }

  /** Parses `script` and throws an Error carrying the parser's message when it is malformed. */
  static fromScript(script: string): FaultScript {
    const parsed = parseFaultScript(script);
    if (!parsed.ok) throw new Error(parsed.error);
    return new FaultScript(parsed.steps, parsed.byModel);
  }

  /** How many steps the script lists, over every model. */
  get stepCount(): number {
    return [...this.modelCursors.values()].reduce((n, c) => n + c.steps.length, this.steps.length);
  }

  /** Every list was handed out: the simulator answers every request normally from now on. */
  get isUsedUp(): boolean {
    return this.cursor.isUsedUp && [...this.modelCursors.values()].every((c) => c.isUsedUp);
  }

  next(model?: string | null): FaultStep {
    return ((model ? this.modelCursors.get(model) : undefined) ?? this.cursor).next();
  }

  reset(): void {
    this.cursor.reset();
    for (const cursor of this.modelCursors.values()) cursor.reset();
  }
}
