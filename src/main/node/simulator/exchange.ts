// One request to the simulator, answered: a streamed (or complete) reply, a status fault, a
// broken stream, or an error event in the middle of a stream — in the wire format of the API the
// request came to (wire.ts). SimulatorServer parses and records the request, then calls respond().
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { faultBehaviour, type FaultStep, type ProviderFault } from './fault-script';
import { shapeReply, shapeStreamError } from './provider-shapes';
import { contentPieces, replyText, slowPieces, tokenPieces, TOKENS_PER_SECOND } from './simulator-replies';
import { toolResultReply } from './simulator-tools';
import {
  usedUpLimitHeaders,
  type ErrorReply,
  type ReplyContext,
  type StatusFault,
  type WireFormat,
  type WireRequest,
} from './wire';

/** Content chunks a `reset` streams before it destroys the socket. */
const RESET_AFTER_CHUNKS = 2;

export interface Exchange {
  res: ServerResponse;
  wire: WireFormat;
  request: WireRequest;
  step: FaultStep;
  context: ReplyContext;
  /** Aborts when the client goes away (or the server stops). */
  signal: AbortSignal;
  chunkDelayMs: number;
  slowChunkDelayMs: number;
  /** What the simulator thinks before a normal reply (simulator-replies.ts' thinkingText), or null. */
  thinking: string | null;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Resolves when the client goes away (or the server stops); `stall` waits on it. */
const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

const isProviderFault = (kind: string): kind is ProviderFault => kind.includes('.');

export function respond(exchange: Exchange): Promise<void> | void {
  const { kind } = exchange.step;
  switch (faultBehaviour(kind)) {
    case 'reply':
      return reply(exchange, false);
    case 'slow':
      return reply(exchange, true);
    case 'tokens':
      return tokens(exchange);
    case 'held':
      return held(exchange);
    case 'broken':
      return broken(exchange, kind as 'reset' | 'drop' | 'stall' | 'malformed');
    case 'stream_error':
      return streamError(exchange);
    case 'status':
      return sendError(exchange.res, statusReply(exchange));
    case 'tool_call':
      return toolCall(exchange);
  }
}

/** A `tool:NAME:ARGS` step: the model calls the tool (in this API's words, where it has them). */
function toolCall({ res, wire, step, context, request }: Exchange): void {
  const tool = step.tool ?? { name: 'unknown', arguments: '{}' };
  if (!wire.toolCall) {
    const message = `The simulator scripts tool calls on Chat Completions only, not on ${wire.name}.`;
    return sendError(res, { status: 400, body: { error: { message, type: 'invalid_request_error' } } });
  }
  const rendered = wire.toolCall(context, { id: `call_sim_${context.id}`, ...tool });
  if (!request.isStream) return sendJson(res, 200, rendered.completion);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const frame of rendered.frames) if (!res.destroyed) res.write(frame);
  res.end();
}

function statusReply({ wire, step, context }: Exchange): ErrorReply {
  const kind = step.kind;
  if (isProviderFault(kind) || kind === 'proxy_502' || kind === 'proxy_503')
    return shapeReply(kind, step, context, Date.now());
  return wire.errors[kind as StatusFault](step, context);
}

function sendError(res: ServerResponse, reply: ErrorReply): void {
  const headers = reply.headers ?? {};
  if (reply.body === null) {
    res.writeHead(reply.status, { ...headers, 'content-length': 0 });
    res.end();
  } else if (typeof reply.body === 'string') {
    const type = reply.contentType ?? 'text/plain';
    res.writeHead(reply.status, { 'content-type': type, 'content-length': Buffer.byteLength(reply.body), ...headers });
    res.end(reply.body);
  } else {
    sendJson(res, reply.status, reply.body, headers);
  }
}

function pieces(exchange: Exchange, isSlow: boolean): string[] {
  // After a tool result the reply quotes it, so a test sees what the model was given.
  const text = toolResultReply(exchange.request.messages) ?? replyText(exchange.request.messages);
  return isSlow ? slowPieces(text) : contentPieces(text);
}

async function reply(exchange: Exchange, isSlow: boolean): Promise<void> {
  const { res, request, wire, context, step } = exchange;
  const parts = pieces(exchange, isSlow);
  const fullText = parts.join('');
  const headers = step.kind === 'ok_limited' ? usedUpLimitHeaders(wire.name, step, Date.now()) : {};
  if (!request.isStream) {
    if (isSlow) await sleep(exchange.slowChunkDelayMs * parts.length, undefined, { signal: exchange.signal });
    return sendJson(res, 200, wire.completion(context, fullText), headers);
  }
  // Known before the first frame: Anthropic and Responses number the thinking first, the words next.
  context.thinks = exchange.thinking !== null && wire.thinkingDelta !== undefined;
  openStream(exchange, headers);
  const delayMs = isSlow ? exchange.slowChunkDelayMs : exchange.chunkDelayMs;
  await streamThinking(exchange, delayMs);
  await streamPieces(exchange, parts, delayMs);
  for (const frame of wire.close(context, fullText)) write(exchange, frame);
  res.end();
}

/** Between two keep-alive comments or progress frames of a held reply, ms. */
const HOLD_TICK_MS = 1000;
/** The prompt a `progress` step reports processing, in tokens. */
const PROGRESS_PROMPT_TOKENS = 32_768;

/**
 * A reply that comes late (docs/retry-policy.md, "Liveness"): `prefill` sends no byte at all while
 * it holds (a local server working on a long prompt), `keepalive` its headers and then an SSE
 * comment every second (OpenRouter's queue), `progress` its headers and llama.cpp's prompt_progress.
 */
async function held(exchange: Exchange): Promise<void> {
  const { res, request, step, signal, wire, context } = exchange;
  const holdMs = (step.holdSeconds ?? 0) * 1000;
  if (step.kind === 'prefill' || !request.isStream) {
    await sleep(holdMs, undefined, { signal });
    return reply(exchange, false);
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const started = performance.now();
  for (let elapsed = 0; elapsed < holdMs; elapsed = performance.now() - started) {
    const processed = Math.floor((Math.min(elapsed, holdMs) / Math.max(1, holdMs)) * PROGRESS_PROMPT_TOKENS);
    const frame =
      step.kind === 'progress' && wire.promptProgress
        ? wire.promptProgress(context, processed, PROGRESS_PROMPT_TOKENS)
        : ': keep-alive\n\n';
    write(exchange, frame);
    await sleep(Math.min(HOLD_TICK_MS, holdMs - elapsed), undefined, { signal });
  }
  // llama.cpp's last progress says the whole prompt is in, just before the first word.
  if (step.kind === 'progress' && wire.promptProgress)
    write(exchange, wire.promptProgress(context, PROGRESS_PROMPT_TOKENS, PROGRESS_PROMPT_TOKENS));
  return reply(exchange, false);
}

/** Real providers stream about one token per event: each tick writes the events due by then. */
const TOKEN_TICK_MS = 10;

async function tokens(exchange: Exchange): Promise<void> {
  const { res, request, wire, context } = exchange;
  const parts = tokenPieces();
  if (!request.isStream) return sendJson(res, 200, wire.completion(context, parts.join('')));
  openStream(exchange);
  const started = performance.now();
  for (let sent = 0; sent < parts.length;) {
    await sleep(TOKEN_TICK_MS, undefined, { signal: exchange.signal });
    // By elapsed time, so a late timer catches up instead of slowing the rate.
    const due = Math.min(parts.length, Math.round(((performance.now() - started) * TOKENS_PER_SECOND) / 1000));
    if (due > sent)
      write(
        exchange,
        parts
          .slice(sent, due)
          .map((piece) => wire.delta(context, piece))
          .join(''),
      );
    sent = Math.max(sent, due);
  }
  for (const frame of wire.close(context, parts.join(''))) write(exchange, frame);
  res.end();
}

async function broken(exchange: Exchange, how: 'reset' | 'drop' | 'stall' | 'malformed'): Promise<void> {
  const { res, request, signal, wire } = exchange;
  if (how === 'drop') {
    res.socket?.destroy();
    return;
  }
  if (!request.isStream) return brokenJson(exchange, how);
  openStream(exchange);
  const parts = pieces(exchange, false);
  if (how === 'stall') {
    // Gemini opens with nothing but the headers; the others have sent their first frames.
    return untilAborted(signal);
  }
  if (how === 'reset') {
    await streamPieces(exchange, parts.slice(0, RESET_AFTER_CHUNKS), exchange.chunkDelayMs);
    // Give the written chunks time to reach the client before the connection dies.
    await sleep(exchange.chunkDelayMs, undefined, { signal });
    res.socket?.destroy();
    return;
  }
  await streamPieces(exchange, parts.slice(0, 1), exchange.chunkDelayMs);
  write(exchange, wire.malformed());
  if (wire.name === 'openai-chat') write(exchange, 'data: [DONE]\n\n');
  res.end();
}

/** The same faults for `stream: false`: a cut-off body, no body, or a body that is not JSON. */
async function brokenJson(
  { res, wire, context, signal, ...rest }: Exchange,
  how: 'reset' | 'stall' | 'malformed',
): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  if (how === 'stall') return untilAborted(signal);
  if (how === 'malformed') {
    res.end('<malformed chunk>');
    return;
  }
  const body = JSON.stringify(wire.completion(context, replyText(rest.request.messages)));
  res.write(body.slice(0, Math.floor(body.length / 2)));
  await sleep(rest.chunkDelayMs, undefined, { signal });
  res.socket?.destroy();
}

/** A stream that begins well, then fails with the provider's error event and ends. */
async function streamError(exchange: Exchange): Promise<void> {
  const { kind } = exchange.step;
  openStream(exchange);
  await streamPieces(exchange, pieces(exchange, false).slice(0, 1), exchange.chunkDelayMs);
  // Its own write after a pause: Gemini's SDK reads a bare JSON error only as a chunk of its own.
  await sleep(exchange.chunkDelayMs + 5, undefined, { signal: exchange.signal });
  const frame = isProviderFault(kind)
    ? shapeStreamError(kind, exchange.context)
    : exchange.wire.streamError(exchange.context);
  write(exchange, frame);
  exchange.res.end();
}

/** Sends the SSE headers and the frames every stream of this API starts with. */
function openStream(exchange: Exchange, headers: Record<string, string> = {}): void {
  // A held reply has sent its headers already.
  if (!exchange.res.headersSent)
    exchange.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
  for (const frame of exchange.wire.open(exchange.context)) write(exchange, frame);
}

/**
 * A thinking block before the words, in the API's thinking frames: Chat Completions'
 * reasoning_content, Anthropic's thinking block, Responses' reasoning summary, Gemini's thought parts.
 */
async function streamThinking(exchange: Exchange, delayMs: number): Promise<void> {
  const { wire, context, thinking } = exchange;
  if (!thinking || !wire.thinkingDelta) return;
  for (const piece of contentPieces(thinking)) {
    await sleep(delayMs, undefined, { signal: exchange.signal });
    write(exchange, wire.thinkingDelta(context, piece));
  }
  for (const frame of wire.thinkingEnd?.(context, thinking) ?? []) write(exchange, frame);
}

async function streamPieces(exchange: Exchange, parts: readonly string[], delayMs: number): Promise<void> {
  for (const piece of parts) {
    await sleep(delayMs, undefined, { signal: exchange.signal });
    write(exchange, exchange.wire.delta(exchange.context, piece));
  }
}

function write({ res, signal }: Exchange, text: string): void {
  if (!signal.aborted && !res.destroyed) res.write(text);
}
