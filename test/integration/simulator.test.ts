// Integration tests of the built-in simulator provider over real HTTP: the fault-script grammar,
// every fault as raw fetch sees it, every fault as pi-ai's openai-completions provider reports it
// (checked against test/fixtures/pi-ai-fault-messages.json, which the error classifier relies
// on), one request per call with maxRetries 0, and the /__sim control routes.
import { readFileSync } from 'node:fs';
import { streamSimple, type AssistantMessage, type Model } from '@mariozechner/pi-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FAULT_KINDS,
  FaultScript,
  GENERIC_FAULTS,
  parseFaultScript,
  type GenericFault,
} from '../../src/main/node/simulator/fault-script';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';

type Outcome = { stopReason: string; errorMessage?: string };
const FIXTURE = JSON.parse(
  readFileSync(new URL('../fixtures/pi-ai-fault-messages.json', import.meta.url), 'utf8'),
) as Record<string, Outcome>;

const REPLY_TO_HELLO =
  'Simulated reply: I received "Hello there". This answer comes from Resolute\'s built-in simulator. ' +
  'Its replies are deterministic, so the same prompt always gets the same answer.';

const sim = new SimulatorServer({ chunkDelayMs: 1, slowChunkDelayMs: 20 });
let baseUrl = '';

beforeAll(async () => {
  // The openai SDK logs a malformed chunk with console.error; the test asserts on it instead.
  vi.stubEnv('OPENAI_LOG', 'off');
  baseUrl = await sim.start();
});
afterAll(async () => {
  await sim.stop();
  vi.unstubAllEnvs();
});
beforeEach(() => {
  sim.setScript('');
  sim.clearRequests();
});

const root = (): string => baseUrl.replace(/\/v1$/, '');

const USER_HELLO = { role: 'user', content: 'Hello there' };

function chat(body: Record<string, unknown> = {}, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sim-key' },
    body: JSON.stringify({ model: 'resolute-sim-1', messages: [USER_HELLO], stream: true, ...body }),
    ...init,
  });
}

/** The `data:` payloads of an SSE body, JSON-parsed where they are JSON. */
function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length))
    .map((data) => (data === '[DONE]' || data.startsWith('<') ? data : (JSON.parse(data) as unknown)));
}

type Chunk = {
  choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[];
  usage?: { total_tokens: number };
};
const contentOf = (events: unknown[]): string =>
  events.map((event) => (typeof event === 'string' ? '' : ((event as Chunk).choices[0]?.delta.content ?? ''))).join('');

/** Reads a body until it ends or breaks; returns what arrived and the error, if any. */
async function readUntilBroken(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: null };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

describe('parseFaultScript', () => {
  it('reads names, hints and repeat counts, separated by commas or whitespace', () => {
    const parsed = parseFaultScript(' 429:2*3, 503\n OK  usage_limit overloaded* ');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.steps.map(({ label, times, retryAfterSeconds }) => [label, times, retryAfterSeconds])).toEqual([
      ['429:2', 3, 2],
      ['503', 1, null],
      ['ok', 1, null],
      ['usage_limit', 1, 30],
      ['overloaded', Infinity, null],
    ]);
  });

  it('accepts an empty script and every step name', () => {
    expect(parseFaultScript('')).toEqual({ ok: true, steps: [], byModel: {} });
    expect(parseFaultScript(' , ')).toEqual({ ok: true, steps: [], byModel: {} });
    const all = parseFaultScript(FAULT_KINDS.join(','));
    expect(all.ok && all.steps.map((step) => step.kind)).toEqual(FAULT_KINDS);
  });

  it.each([
    ['ok, fo0', /Unknown step "fo0".*Known steps: ok, slow, 429/],
    ['503:5', /"503:5".*takes no ":seconds"/],
    ['429:soon', /"429:soon".*number of seconds/],
    ['429:-1', /"429:-1"/],
    ['503*0', /"503\*0".*repeat count/],
    ['503*2.5', /"503\*2.5"/],
    ['503**', /Cannot read step "503\*\*"/],
    ['503*, ok', /Step "ok" comes after "503\*", which repeats forever/],
  ])('refuses %j with an error naming the token', (script, message) => {
    const parsed = parseFaultScript(script);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(message);
  });
});

describe('FaultScript cursor', () => {
  it('hands out steps one per request, honours *N, then falls back to ok; reset rewinds', () => {
    const script = FaultScript.fromScript('429*2 503');
    const labels = () => Array.from({ length: 5 }, () => script.next().label);
    expect(labels()).toEqual(['429', '429', '503', 'ok', 'ok']);
    script.reset();
    expect(script.next().label).toBe('429');
  });

  it('repeats a `step*` forever', () => {
    const script = FaultScript.fromScript('ok 503*');
    expect(Array.from({ length: 50 }, () => script.next().label)).toEqual(['ok', ...Array<string>(49).fill('503')]);
  });

  it('throws the parser message for a bad script', () => {
    expect(() => FaultScript.fromScript('oops')).toThrow(/Unknown step "oops"/);
  });
});

describe('the simulator over raw HTTP', () => {
  it('streams role, content deltas, stop, usage and [DONE]', async () => {
    const response = await chat({ stream_options: { include_usage: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseData(await response.text());
    const chunks = events.slice(0, -1) as Chunk[];
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(contentOf(events)).toBe(REPLY_TO_HELLO);
    expect(chunks.length).toBeGreaterThan(8);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
    expect(events.at(-1)).toBe('[DONE]');
  });

  it('sends no usage chunk unless asked, and a JSON completion for stream: false', async () => {
    const events = sseData(await (await chat()).text());
    expect(events.some((event) => typeof event === 'object' && (event as Chunk).usage)).toBe(false);
    const response = await chat({ stream: false });
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { object: string; choices: { message: { content: string } }[] };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message.content).toBe(REPLY_TO_HELLO);
  });

  it('answers a request to summarise with a "Summary:" line', async () => {
    const system = { role: 'system', content: 'Summarize the chat.' };
    const bySystem = await chat({ messages: [system, { role: 'user', content: 'a b c' }] });
    expect(contentOf(sseData(await bySystem.text()))).toBe(
      'Summary: 2 messages so far; the latest request began "a b c".',
    );
    const parts = [{ type: 'text', text: 'Please SUMMARISE this' }];
    const byUser = await chat({ stream: false, messages: [{ role: 'user', content: parts }] });
    const body = (await byUser.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0].message.content).toMatch(/^Summary: 1 messages so far/);
  });

  it('streams a slow reply in 200 content chunks', async () => {
    const fast = new SimulatorServer({ script: 'slow', slowChunkDelayMs: 1 });
    const url = await fast.start();
    try {
      const response = await fetch(`${url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ messages: [USER_HELLO], stream: true }),
      });
      const events = sseData(await response.text());
      const contentChunks = events.filter(
        (event) => typeof event === 'object' && (event as Chunk).choices[0]?.delta.content,
      );
      expect(contentChunks).toHaveLength(200);
      expect(contentOf(events).startsWith(REPLY_TO_HELLO)).toBe(true);
    } finally {
      await fast.stop();
    }
  });

  it.each([
    ['429', 429, '1', 'Rate limit reached for requests'],
    ['429:3', 429, '3', 'Rate limit reached for requests'],
    ['500', 500, null, 'Internal server error'],
    ['502', 502, null, 'Bad gateway'],
    ['503', 503, null, 'Service Unavailable'],
    ['overloaded', 529, null, 'Overloaded'],
    ['usage_limit', 429, '30', 'You have hit your usage limit. Please retry in 30s'],
    ['usage_limit:7', 429, '7', 'You have hit your usage limit. Please retry in 7s'],
    ['auth', 401, null, 'Incorrect API key provided.'],
    ['bad_request', 400, null, 'Invalid request: the simulator rejected this request as scripted.'],
  ])('%s answers %i (retry-after %s) with a JSON error', async (script, status, retryAfter, message) => {
    sim.setScript(script);
    const response = await chat();
    expect(response.status).toBe(status);
    expect(response.headers.get('retry-after')).toBe(retryAfter);
    const body = (await response.json()) as { error: { message: string; type: string } };
    expect(body.error.message).toBe(message);
    if (script === 'overloaded') expect(body.error.type).toBe('overloaded_error');
    if (script.startsWith('usage_limit')) expect(body.error.type).toBe('usage_limit_reached');
    expect(sim.requests.map((request) => request.step)).toEqual([script]);
  });

  it('504 has an empty body; overflow has OpenAI exact context_length_exceeded body', async () => {
    sim.setScript('504 overflow');
    const gateway = await chat();
    expect([gateway.status, await gateway.text()]).toEqual([504, '']);
    const overflow = await chat();
    expect(overflow.status).toBe(400);
    expect(await overflow.json()).toEqual({
      error: {
        message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
        type: 'invalid_request_error',
        param: null,
        code: 'context_length_exceeded',
      },
    });
  });

  it('reset streams part of the reply, then the connection breaks', async () => {
    sim.setScript('reset');
    const response = await chat();
    expect(response.status).toBe(200);
    const { text, error } = await readUntilBroken(response);
    expect(error).toBeInstanceOf(Error);
    expect(contentOf(sseData(text))).toBe('Simulated reply: I received "Hello there". ');
    expect(text).not.toContain('[DONE]');
  });

  it('drop closes the socket before any header, and the request is still recorded', async () => {
    sim.setScript('drop');
    await expect(chat()).rejects.toThrow(/fetch failed/);
    expect(sim.requests.map((request) => request.step)).toEqual(['drop']);
  });

  it('stall sends the headers and the first chunk, then nothing', async () => {
    sim.setScript('stall');
    const controller = new AbortController();
    const response = await chat({}, { signal: controller.signal });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect((sseData(first)[0] as Chunk).choices[0].delta.role).toBe('assistant');
    const next = reader.read().then(
      () => 'data',
      () => 'aborted',
    );
    const quiet = new Promise((resolve) => setTimeout(() => resolve('quiet'), 300));
    expect(await Promise.race([next, quiet])).toBe('quiet');
    controller.abort();
    expect(await next).toBe('aborted');
  });

  it('malformed sends a data line that is not JSON', async () => {
    sim.setScript('malformed');
    const text = await (await chat()).text();
    expect(text).toContain('\n\ndata: <malformed chunk>\n\n');
    // A normal chunk opens the stream; the broken line comes last, before [DONE].
    expect(sseData(text).slice(-2)).toEqual(['<malformed chunk>', '[DONE]']);
  });

  it('prefill holds every byte, headers included, then answers', async () => {
    sim.setScript('prefill:1');
    const response = chat().then(() => 'headers');
    const quiet = new Promise((resolve) => setTimeout(() => resolve('quiet'), 300));
    expect(await Promise.race([response, quiet])).toBe('quiet');
    expect(await response).toBe('headers');
    expect(sim.requests.map((request) => request.step)).toEqual(['prefill:1']);
  });

  it('keepalive sends SSE comments before the reply; progress sends llama.cpp prompt_progress', async () => {
    sim.setScript('keepalive:1.5 progress:1.5');
    const kept = await (await chat()).text();
    expect(kept.startsWith(': keep-alive\n\n: keep-alive\n\n')).toBe(true);
    expect(contentOf(sseData(kept))).toBe(REPLY_TO_HELLO);
    const progressed = await (await chat()).text();
    const progress = sseData(progressed)
      .filter((data) => typeof data === 'object' && data !== null && 'prompt_progress' in data)
      .map((data) => (data as { prompt_progress: { processed: number; total: number } }).prompt_progress);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]).toMatchObject({ processed: 0, total: 32_768 });
    expect(progress.at(-1)).toMatchObject({ processed: 32_768, total: 32_768 });
    expect(contentOf(sseData(progressed))).toBe(REPLY_TO_HELLO);
  });
});

const MODEL: Model<'openai-completions'> = {
  id: 'resolute-sim-1',
  name: 'Resolute simulator',
  api: 'openai-completions',
  provider: 'simulator',
  baseUrl: '',
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 8192,
  maxTokens: 1024,
};

function ask(text: string, options: { signal?: AbortSignal; maxRetries?: number } = {}): Promise<AssistantMessage> {
  const context = { messages: [{ role: 'user' as const, content: text, timestamp: Date.now() }] };
  return streamSimple({ ...MODEL, baseUrl }, context, { apiKey: 'sim-key', maxRetries: 0, ...options }).result();
}

const textOf = (message: AssistantMessage): string =>
  message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('the simulator through pi-ai (maxRetries 0)', () => {
  it('answers ok with the deterministic reply, usage and one request', async () => {
    const message = await ask('Hello there');
    expect(message.stopReason).toBe('stop');
    expect(textOf(message)).toBe(REPLY_TO_HELLO);
    expect(message.usage.output).toBeGreaterThan(0);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      model: 'resolute-sim-1',
      apiKey: 'sim-key',
      lastUserText: 'Hello there',
      step: 'ok',
      messageCount: 1,
    });
  });

  // The provider.shape steps are driven through their own SDKs by the conformance suite.
  const REPLIES = ['ok', 'slow', 'ok_limited', 'tokens', 'prefill', 'keepalive', 'progress'] as const;
  const faults = GENERIC_FAULTS.filter(
    (kind): kind is Exclude<GenericFault, (typeof REPLIES)[number]> => !(REPLIES as readonly string[]).includes(kind),
  );

  it('the fixture covers exactly the faults', () => {
    expect(Object.keys(FIXTURE).sort()).toEqual([...faults].sort());
  });

  it.each(faults)('%s ends as the fixture says, after exactly one request', async (fault) => {
    sim.setScript(fault);
    const signal = fault === 'stall' ? AbortSignal.timeout(300) : undefined;
    const message = await ask('Hello there', { signal });
    expect({ stopReason: message.stopReason, errorMessage: message.errorMessage }).toEqual(FIXTURE[fault]);
    expect(sim.requests.map((request) => request.step)).toEqual([fault]);
    if (fault === 'reset') expect(textOf(message)).toBe('Simulated reply: I received "Hello there". ');
  });

  it.each(['prefill:0.2', 'keepalive:1.2', 'progress:1.2'])(
    '%s is answered with the reply, one request',
    async (step) => {
      sim.setScript(step);
      const message = await ask('Hello there');
      expect([message.stopReason, textOf(message)]).toEqual(['stop', REPLY_TO_HELLO]);
      expect(sim.requests.map((request) => request.step)).toEqual([step]);
    },
  );

  it('Stop in the middle of a slow reply keeps the partial text', async () => {
    sim.setScript('slow');
    const message = await ask('Hello there', { signal: AbortSignal.timeout(300) });
    expect(message.stopReason).toBe('aborted');
    expect(message.errorMessage).toBe('Request was aborted');
    expect(textOf(message).length).toBeGreaterThan(0);
    expect(textOf(message).length).toBeLessThan(REPLY_TO_HELLO.length + 200 * 10);
    expect(sim.requests).toHaveLength(1);
  });

  it('counts the SDK retries a non-zero maxRetries would add (so the one-request checks can fail)', async () => {
    sim.setScript('429:0, ok');
    const message = await ask('Hello there', { maxRetries: 1 });
    expect(message.stopReason).toBe('stop');
    expect(sim.requests.map((request) => request.step)).toEqual(['429:0', 'ok']);
  });
});

describe('control routes and robustness', () => {
  const post = (path: string, body: string): Promise<Response> =>
    fetch(`${root()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('POST /__sim/script sets the script; a bad one is refused with the parser message', async () => {
    const good = await post('/__sim/script', JSON.stringify({ script: '503*2' }));
    expect(good.status).toBe(200);
    const bad = await post('/__sim/script', JSON.stringify({ script: '503 nope' }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/Unknown step "nope"/);
    expect(await (await fetch(`${root()}/__sim/script`)).json()).toEqual({ script: '503*2' });
    expect(sim.script).toBe('503*2');
    expect((await chat()).status).toBe(503);
    expect((await post('/__sim/script', '{"script": 3}')).status).toBe(400);
  });

  it('GET /__sim/requests lists what was seen; POST /__sim/reset clears it and rewinds the script', async () => {
    sim.setScript('500 ok');
    expect((await chat()).status).toBe(500);
    const listed = (await (await fetch(`${root()}/__sim/requests`)).json()) as {
      index: number;
      step: string;
      apiKey: string;
    }[];
    expect(listed).toMatchObject([{ index: 0, step: '500', apiKey: 'sim-key' }]);
    expect((await post('/__sim/reset', '')).status).toBe(200);
    expect(sim.requests).toEqual([]);
    expect((await chat()).status).toBe(500);
  });

  it('serves /v1/models, the un-prefixed route, 404 JSON and 400 for a body that is not JSON', async () => {
    const models = (await (await fetch(`${baseUrl}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(['resolute-sim-1', 'resolute-sim-2', 'resolute-sim-3']);
    const body = JSON.stringify({ messages: [USER_HELLO] });
    const unprefixed = await fetch(`${root()}/chat/completions`, { method: 'POST', body });
    expect(unprefixed.status).toBe(200);
    const missing = await fetch(`${root()}/nowhere`);
    expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'application/json']);
    const notJson = await post('/v1/chat/completions', '{oops');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toMatch(/not valid JSON/);
    expect((await post('/v1/chat/completions', '{"messages": "x"}')).status).toBe(400);
    expect(sim.requests.map((request) => request.path)).toEqual(['/chat/completions']);
  });

  it('setScript and the constructor throw on a bad script; stop() ends a stalled stream at once', async () => {
    expect(() => sim.setScript('429:x')).toThrow(/"429:x"/);
    expect(() => new SimulatorServer({ script: 'what' })).toThrow(/Unknown step "what"/);
    const stalled = new SimulatorServer({ script: 'stall' });
    const url = await stalled.start();
    const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: '{"messages":[],"stream":true}' });
    // A stop() that waited for the stalled stream would never return (the test's timeout).
    await stalled.stop();
    expect((await readUntilBroken(response)).error).toBeInstanceOf(Error);
  });
});

describe('control routes refuse web pages', () => {
  it('answers 403 to a request with an Origin or a POST that is not JSON, and changes nothing', async () => {
    const sim = new SimulatorServer({ script: '503' });
    const url = (await sim.start()).replace(/\/v1$/, '');
    try {
      const fromPage = await fetch(`${url}/__sim/script`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{"script":"ok"}',
      });
      expect(fromPage.status).toBe(403);
      const plain = await fetch(`${url}/__sim/script`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"script":"ok"}',
      });
      expect(plain.status).toBe(403);
      expect(sim.script).toBe('503');
    } finally {
      await sim.stop();
    }
  });
});
