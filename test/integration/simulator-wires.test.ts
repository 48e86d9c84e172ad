// The simulator's other wire formats over raw HTTP: which API each route speaks, the key each
// provider's SDK sends (Bearer, x-api-key, x-goog-api-key or ?key=), the frames of a reply and of
// an error in the middle of a stream, and the grammar of the `provider.shape` steps. The real SDKs
// drive the same routes in test/conformance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAULT_KINDS, parseFaultScript } from '../../src/main/node/simulator/fault-script';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';

const sim = new SimulatorServer({ chunkDelayMs: 1 });
let root = '';

beforeAll(async () => {
  root = (await sim.start()).replace(/\/v1$/, '');
});
afterAll(() => sim.stop());
beforeEach(() => {
  sim.setScript('');
  sim.clearRequests();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${root}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const anthropicBody = { model: 'claude-x', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] };
const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

describe('routes and keys', () => {
  it.each([
    ['/v1/messages', anthropicBody, { 'x-api-key': 'ant-key' }, 'anthropic', 'claude-x', 'ant-key'],
    [
      '/v1/responses',
      { model: 'gpt-x', input: 'Hi', stream: true },
      { authorization: 'Bearer oa-key' },
      'openai-responses',
      'gpt-x',
      'oa-key',
    ],
    [
      '/v1beta/models/gemini-x:streamGenerateContent?alt=sse',
      geminiBody,
      { 'x-goog-api-key': 'g-key' },
      'gemini',
      'gemini-x',
      'g-key',
    ],
    ['/v1beta/models/gemini-y:generateContent?key=q-key', geminiBody, {}, 'gemini', 'gemini-y', 'q-key'],
    [
      '/v1/chat/completions',
      { messages: [{ role: 'user', content: 'Hi' }] },
      { authorization: 'Bearer c-key' },
      'openai-chat',
      null,
      'c-key',
    ],
  ] as const)('%s is %s', async (path, body, headers, api, model, apiKey) => {
    const response = await post(path, body, headers);
    expect(response.status).toBe(200);
    await response.text();
    expect(sim.requests).toMatchObject([{ api, model, apiKey, lastUserText: 'Hi', step: 'ok' }]);
  });

  it('answers a body the API cannot read with 400', async () => {
    expect((await post('/v1/messages', { messages: 'no' })).status).toBe(400);
    expect((await post('/v1beta/models/g:streamGenerateContent', { contents: 3 })).status).toBe(400);
    expect(sim.requests).toEqual([]);
  });
});

describe('frames', () => {
  it('Anthropic: message_start … message_stop around text deltas; Gemini: data chunks ending in STOP', async () => {
    const anthropic = await (await post('/v1/messages', anthropicBody)).text();
    const events = [...anthropic.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(events).toContain('content_block_delta');
    const gemini = await (await post('/v1beta/models/g:streamGenerateContent?alt=sse', geminiBody)).text();
    expect(gemini.split('\r\n\r\n').at(-2)).toContain('"finishReason":"STOP"');
  });

  it('stream_error ends a begun stream with the provider’s error event', async () => {
    sim.setScript('stream_error*');
    const anthropic = await (await post('/v1/messages', anthropicBody)).text();
    expect(anthropic).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error"/);
    const responses = await (await post('/v1/responses', { input: 'Hi', stream: true })).text();
    expect(responses).toMatch(/event: response\.failed\ndata: .*"code":"server_error"/);
    const gemini = await (await post('/v1beta/models/g:streamGenerateContent?alt=sse', geminiBody)).text();
    expect(gemini.trimEnd().endsWith('"status": "UNAVAILABLE"\n  }\n}')).toBe(true);
  });

  it('provider shapes are sent as documented, whichever API was called', async () => {
    sim.setScript('anthropic.spend_limit openai.rate_limit_tpm:0.5 proxy_503');
    const spend = await post('/v1/chat/completions', { messages: [] });
    expect(spend.status).toBe(429);
    expect(await spend.json()).toMatchObject({ error: { details: { error_code: 'enforced_spend_limit_reached' } } });
    const tpm = await post('/v1/responses', { input: 'Hi' });
    expect(tpm.headers.get('x-ratelimit-reset-tokens')).toBe('6m0s');
    expect(((await tpm.json()) as { error: { message: string } }).error.message).toMatch(/Please try again in 500ms\./);
    const proxy = await post('/v1/messages', anthropicBody);
    expect([proxy.status, proxy.headers.get('content-type'), await proxy.text()]).toEqual([
      503,
      'text/plain',
      'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
    ]);
  });
});

describe('grammar of provider shapes', () => {
  it('reads dotted names and their hints; every step name parses', () => {
    const parsed = parseFaultScript('openai.rate_limit_tpm:0.05*2 anthropic.credit_low google.quota_plain*');
    expect(parsed.ok && parsed.steps.map((s) => [s.label, s.retryAfterSeconds, s.times])).toEqual([
      ['openai.rate_limit_tpm:0.05', 0.05, 2],
      ['anthropic.credit_low', null, 1],
      ['google.quota_plain', null, Infinity],
    ]);
    const all = parseFaultScript(FAULT_KINDS.join(' '));
    expect(all.ok && all.steps.length).toBe(FAULT_KINDS.length);
  });

  it.each([
    ['anthropic.credit_low:3', /takes no ":seconds"/],
    ['openai.nothing', /Unknown step "openai\.nothing"/],
    ['a.b.c', /Cannot read step "a\.b\.c"/],
  ])('refuses %j', (script, message) => {
    const parsed = parseFaultScript(script);
    expect(!parsed.ok && parsed.error).toMatch(message);
  });
});
