// The fault script of the built-in simulator: its grammar, the table of what every step does on
// the wire, and a cursor that hands out one step per chat-completion request. Pure (no I/O):
// SimulatorServer interprets the table, and the settings pane can validate a script with it.
//
// Grammar (the README quotes this block):
//   script  := step ( sep step )*        sep := "," or whitespace; an empty script = always ok
//   step    := name [ ":" seconds ] [ "*" [ count ] ]
//   name*N  repeats the step N times;  name*  repeats it forever (nothing may follow it)
//   seconds (429 and usage_limit only) is the retry hint, a non-negative number, e.g. 429:2
//   Steps are consumed one per request; once the list is used up every request gets `ok`.
//   Names are case-insensitive. Example: "429*2, ok" = rate-limited twice, then an answer.
//   tool:NAME:ARGS  the model calls tool NAME with the arguments ARGS, sent as written (JSON, or
//   anything else to script invalid arguments); commas and spaces inside {…}, […] or "…" belong
//   to ARGS. The next step answers once the tool result is in, e.g. 'tool:bash:{"command":"ls"}, ok'.
//
// Steps:
//   ok           a normal deterministic reply
//   slow         a long reply (200 content chunks) streamed slowly, for Stop-mid-stream tests
//   429[:s]      429 "Rate limit reached for requests", Retry-After: s (default 1)
//   500 502 503  5xx with an OpenAI-style JSON error body
//   504          504 with an empty body (how gateways answer)
//   overloaded   529 with an "overloaded_error" body, message "Overloaded"
//   usage_limit[:s]  429 type "usage_limit_reached", "…Please retry in <s>s", Retry-After: s (default 30)
//   reset        streams part of the reply, then destroys the socket
//   drop         destroys the socket before any header is sent
//   stall        sends the headers and the first chunk, then nothing until the client goes away
//   malformed    sends a data line that is not JSON
//   overflow     400 context_length_exceeded (OpenAI's wording: 8192 tokens, 9000 requested)
//   auth         401 invalid_api_key
//   bad_request  400 invalid_request_error
//   tool         (tool:NAME:ARGS) a streamed tool call, finish_reason "tool_calls"

// Listed, not taken from Object.keys(FAULTS): integer-like keys ("429") would sort first there.
export const FAULT_KINDS = [
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
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** A step is a fault (or ok/slow), or a scripted tool call. */
export type StepKind = FaultKind | 'tool';

export interface FaultStep {
  kind: StepKind;
  /** The step as written, without its repeat count (e.g. "429:2"); recorded per request. */
  label: string;
  /** Retry hint in seconds for 429 and usage_limit (the default when not written), else null. */
  retryAfterSeconds: number | null;
  /** How many requests this step covers; Infinity for `step*`. */
  times: number;
  /** For `tool`: the tool the model calls and its arguments as sent. */
  tool?: { name: string; arguments: string };
}

/** What a step does on the wire; SimulatorServer has one handler per `type`. */
export type FaultResponse =
  | { type: 'reply'; speed: 'normal' | 'slow' }
  | { type: 'status'; status: number; body: (step: FaultStep) => object | null; sendsRetryAfter: boolean }
  | { type: 'broken'; how: 'reset' | 'drop' | 'stall' | 'malformed' }
  | { type: 'tool_call' };

interface FaultDefinition {
  response: FaultResponse;
  /** Set for the steps that take ":seconds"; the value is the default hint. */
  defaultRetryAfterSeconds?: number;
}

const openAiError =
  (message: string, type: string, code: string | null = null) =>
  () => ({
    error: { message, type, param: null, code },
  });

const status = (code: number, body: (step: FaultStep) => object | null, sendsRetryAfter = false): FaultResponse => ({
  type: 'status',
  status: code,
  body,
  sendsRetryAfter,
});

const FAULTS: Record<FaultKind, FaultDefinition> = {
  ok: { response: { type: 'reply', speed: 'normal' } },
  slow: { response: { type: 'reply', speed: 'slow' } },
  '429': {
    response: status(429, openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), true),
    defaultRetryAfterSeconds: 1,
  },
  '500': { response: status(500, openAiError('Internal server error', 'server_error')) },
  '502': { response: status(502, openAiError('Bad gateway', 'server_error')) },
  '503': { response: status(503, openAiError('Service Unavailable', 'server_error')) },
  '504': { response: status(504, () => null) },
  // Anthropic's shape (top-level type "error"), as OpenAI-compatible proxies pass it through.
  overloaded: {
    response: status(529, () => ({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })),
  },
  usage_limit: {
    response: status(
      429,
      (step) => ({
        error: {
          type: 'usage_limit_reached',
          message: `You have hit your usage limit. Please retry in ${step.retryAfterSeconds}s`,
          resets_in_seconds: step.retryAfterSeconds,
        },
      }),
      true,
    ),
    defaultRetryAfterSeconds: 30,
  },
  reset: { response: { type: 'broken', how: 'reset' } },
  drop: { response: { type: 'broken', how: 'drop' } },
  stall: { response: { type: 'broken', how: 'stall' } },
  malformed: { response: { type: 'broken', how: 'malformed' } },
  overflow: {
    response: status(
      400,
      openAiError(
        "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
        'invalid_request_error',
        'context_length_exceeded',
      ),
    ),
  },
  auth: {
    response: status(401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')),
  },
  bad_request: {
    response: status(
      400,
      openAiError('Invalid request: the simulator rejected this request as scripted.', 'invalid_request_error'),
    ),
  },
};

const MAX_REPEAT = 1_000_000;
const MAX_RETRY_AFTER_SECONDS = 86_400;
const STEP_PATTERN = /^([a-z0-9_]+)(?::([^*]*))?(\*(\d*))?$/;

export const OK_STEP: FaultStep = { kind: 'ok', label: 'ok', retryAfterSeconds: null, times: Infinity };

export function faultResponse(kind: StepKind): FaultResponse {
  return kind === 'tool' ? { type: 'tool_call' } : FAULTS[kind].response;
}

const isFaultKind = (name: string): name is FaultKind => (FAULT_KINDS as readonly string[]).includes(name);

type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

function parseSeconds(kind: FaultKind, raw: string | undefined, token: string): ParseResult<number | null> {
  const fallback = FAULTS[kind].defaultRetryAfterSeconds;
  if (raw === undefined) return { ok: true, value: fallback ?? null };
  if (fallback === undefined) {
    return { ok: false, error: `Step "${token}": "${kind}" takes no ":seconds" (only 429 and usage_limit do).` };
  }
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds > MAX_RETRY_AFTER_SECONDS) {
    const error = `Step "${token}": the retry hint must be a number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}.`;
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
  return { ok: true, value: { kind: name, label, retryAfterSeconds: seconds.value, times: times.value } };
}

/** Parses a fault script; never throws. The error names the token it could not read. */
export function parseFaultScript(script: string): { ok: true; steps: FaultStep[] } | { ok: false; error: string } {
  const tokens = scriptTokens(script);
  const steps: FaultStep[] = [];
  for (const token of tokens) {
    const previous = steps.at(-1);
    if (previous && previous.times === Infinity) {
      const error = `Step "${token}" comes after "${previous.label}*", which repeats forever, so it could never run.`;
      return { ok: false, error };
    }
    const step = parseStep(token);
    if (!step.ok) return step;
    steps.push(step.value);
  }
  return { ok: true, steps };
}

/** Hands out the steps of a parsed script, one per request, then `ok` for ever. */
export class FaultScript {
  private index = 0;
  private usedOfCurrent = 0;

  constructor(readonly steps: readonly FaultStep[] = []) {}

  /** Parses `script` and throws an Error carrying the parser's message when it is malformed. */
  static fromScript(script: string): FaultScript {
    const parsed = parseFaultScript(script);
    if (!parsed.ok) throw new Error(parsed.error);
    return new FaultScript(parsed.steps);
  }

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

  reset(): void {
    this.index = 0;
    this.usedOfCurrent = 0;
  }
}
