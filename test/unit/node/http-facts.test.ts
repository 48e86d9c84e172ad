// The HTTP-facts recorder (src/main/node/http-facts.ts) over real HTTP: the codes of Google's,
// Anthropic's and OpenAI's error bodies, and the error events that arrive inside a 200 stream
// (Anthropic `event: error`, OpenAI Responses `error` / `response.failed`, a Chat Completions
// error chunk, Gemini's bare JSON error), while the body reaches the SDK byte for byte.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFactsRecorder } from '../../../src/main/node/http-facts';

interface Canned {
  status: number;
  headers?: Record<string, string>;
  /** Written one by one with a pause, as a server flushes stream events. */
  chunks: string[];
}

const canned = new Map<string, Canned>();
let server: Server;
let base = '';
const recorder = new HttpFactsRecorder();
let uninstall: () => void;

beforeAll(async () => {
  server = createServer((req, res) => {
    const reply = canned.get(req.url ?? '')!;
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    void (async () => {
      for (const chunk of reply.chunks) {
        res.write(chunk);
        await sleep(5);
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  uninstall = recorder.install();
});

afterAll(async () => {
  uninstall();
  await new Promise((resolve) => server.close(resolve));
});

async function observe(path: string, reply: Canned) {
  canned.set(path, reply);
  const observation = recorder.begin();
  const response = await fetch(`${base}${path}`, { headers: observation.headers });
  const text = await response.text();
  return { facts: observation.finish(), text, status: response.status };
}

const json = (value: unknown): string => JSON.stringify(value);

describe('error bodies', () => {
  it("reads Google's status name, ErrorInfo reason, RetryInfo delay and quota ids", async () => {
    const body = {
      error: {
        code: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '32s' },
        ],
      },
    };
    const { facts } = await observe('/google-429', { status: 429, chunks: [json(body)] });
    expect(facts).toMatchObject({
      status: 429,
      errorType: 'RESOURCE_EXHAUSTED',
      errorCodes: ['RESOURCE_EXHAUSTED'],
      retryDelay: '32s',
      quotaIds: ['GenerateRequestsPerMinutePerProjectPerModel-FreeTier'],
    });
  });

  it("puts Anthropic's details.error_code before error.type", async () => {
    const body = {
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: "This request would exceed your account's monthly spend limit.",
        details: { error_code: 'enforced_spend_limit_reached' },
      },
    };
    const { facts } = await observe('/anthropic-spend', { status: 429, chunks: [json(body)] });
    expect(facts?.errorCodes).toEqual(['enforced_spend_limit_reached', 'rate_limit_error']);
  });

  it("puts OpenAI's code before its type, and keeps the rate-limit headers", async () => {
    const body = {
      error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
    };
    const headers = { 'x-ratelimit-reset-tokens': '6m0s', 'x-request-id': 'req_1' };
    const { facts } = await observe('/openai-401', { status: 401, headers, chunks: [json(body)] });
    expect(facts).toMatchObject({ status: 401, errorCodes: ['invalid_api_key', 'invalid_request_error'] });
    expect(facts?.headers).toEqual({ 'x-ratelimit-reset-tokens': '6m0s' });
  });

  it('finds no codes in an HTML page from a proxy', async () => {
    const { facts } = await observe('/proxy', { status: 502, chunks: ['<html><body>502 Bad Gateway</body></html>'] });
    expect(facts).toMatchObject({ status: 502 });
    expect(facts?.errorCodes).toBeUndefined();
  });
});

describe('error events inside a 200 stream', () => {
  const sse = { 'content-type': 'text/event-stream' };

  it.each<[string, string[], string[]]>([
    [
      'Anthropic event: error',
      [
        `event: message_start\ndata: ${json({ type: 'message_start', message: { id: 'm' } })}\n\n`,
        `event: error\ndata: ${json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
      ],
      ['overloaded_error'],
    ],
    [
      'OpenAI Responses error event',
      [
        `event: response.created\ndata: ${json({ type: 'response.created', response: { error: null } })}\n\n`,
        `event: error\ndata: ${json({ type: 'error', code: 'server_error', message: 'The server had an error', param: null })}\n\n`,
      ],
      ['server_error'],
    ],
    [
      'OpenAI Responses response.failed',
      [
        `event: response.failed\ndata: ${json({
          type: 'response.failed',
          response: { status: 'failed', error: { code: 'server_error', message: 'You can retry your request' } },
        })}\n\n`,
      ],
      ['server_error'],
    ],
    [
      'Chat Completions error chunk',
      [
        `data: ${json({ choices: [{ delta: { content: 'Hel' } }] })}\n\n`,
        `data: ${json({ error: { message: 'The server had an error', type: 'server_error', code: null } })}\n\n`,
      ],
      ['server_error'],
    ],
    [
      "Gemini's bare JSON error (pretty-printed, no blank line after it)",
      [
        `data: ${json({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] })}\r\n\r\n`,
        JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }, null, 2),
      ],
      ['UNAVAILABLE'],
    ],
  ])('%s', async (_label, chunks, codes) => {
    const { facts, text } = await observe(`/stream-${codes[0]}-${chunks.length}-${_label.length}`, {
      status: 200,
      headers: sse,
      chunks,
    });
    expect(text).toBe(chunks.join(''));
    expect(facts).toMatchObject({ status: 200, inStream: true, errorCodes: codes });
  });

  it('reports nothing for a stream that ends well', async () => {
    const chunks = [`data: ${json({ choices: [{ delta: { content: 'error-free' } }] })}\n\n`, 'data: [DONE]\n\n'];
    const { facts, text } = await observe('/stream-ok', { status: 200, headers: sse, chunks });
    expect(text).toBe(chunks.join(''));
    expect(facts).toEqual({ status: 200, headers: {} });
  });
});
