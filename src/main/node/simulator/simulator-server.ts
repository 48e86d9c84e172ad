// The built-in simulator provider: a real HTTP server on 127.0.0.1 that speaks OpenAI's
// chat/completions API (SSE streaming) with deterministic replies and scripted faults
// (fault-script.ts). The app uses it as the default provider; the integration tests drive it
// over real HTTP and count what it saw through `requests` or GET /__sim/requests.
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultScript, faultResponse, type FaultResponse, type FaultStep } from './fault-script';
import { lastToolResult, toolCallChunks, toolCallCompletion, toolResultReply } from './simulator-tools';
import { SIMULATOR_MODEL_ID } from '../../../shared/settings';
import {
  completion,
  completionChunk,
  contentPieces,
  lastUserText,
  modelList,
  parseCompletionRequest,
  replyText,
  slowPieces,
  usageChunk,
  usageFor,
  type ChunkContext,
  type CompletionRequest,
} from './simulator-replies';

export interface SimulatorServerOptions {
  /** TCP port on 127.0.0.1; default 0 = pick a free one. */
  port?: number;
  /** Initial fault script (see fault-script.ts); default "" = always ok. Throws if malformed. */
  script?: string;
  /** Pause between content chunks of a normal reply, in ms; default 15. */
  chunkDelayMs?: number;
  /** Pause between the chunks of a `slow` reply, in ms; default 40. */
  slowChunkDelayMs?: number;
}

/** One chat-completion request as the simulator saw it, recorded before its fault was applied. */
export interface RecordedRequest {
  /** 0-based, in arrival order since the last clear. */
  index: number;
  /** Epoch ms. */
  at: number;
  path: string;
  model: string | null;
  /** From `Authorization: Bearer …`. */
  apiKey: string | null;
  lastUserText: string;
  /** The script step applied, e.g. "ok", "429:2". */
  step: string;
  messageCount: number;
  /** The newest message's text when it is a tool result (what the model was given), else null. */
  lastToolResult: string | null;
}

/** One chat-completion exchange in flight; `signal` aborts when the client goes away. */
interface Exchange {
  res: ServerResponse;
  request: CompletionRequest;
  step: FaultStep;
  context: ChunkContext;
  signal: AbortSignal;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** A line that is not JSON, for `malformed`; JSON.parse fails on its first character. */
const MALFORMED_LINE = '<malformed chunk>';
/** Content chunks a `reset` streams before it destroys the socket. */
const RESET_AFTER_CHUNKS = 2;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const errorBody = (message: string, type = 'invalid_request_error') => ({
  error: { message, type, param: null, code: null },
});

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}

const bearerKey = (req: IncomingMessage): string | null =>
  /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? null;

/** Resolves when the client goes away (or the server stops); `stall` waits on it. */
const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

export class SimulatorServer {
  private readonly server: Server;
  private readonly port: number;
  private readonly chunkDelayMs: number;
  private readonly slowChunkDelayMs: number;
  private cursor: FaultScript;
  private scriptText: string;
  private recorded: RecordedRequest[] = [];
  private baseUrl: string | null = null;

  constructor(options: SimulatorServerOptions = {}) {
    this.port = options.port ?? 0;
    this.chunkDelayMs = options.chunkDelayMs ?? 15;
    this.slowChunkDelayMs = options.slowChunkDelayMs ?? 40;
    this.scriptText = options.script ?? '';
    this.cursor = FaultScript.fromScript(this.scriptText);
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** The requests seen since the last clear (a copy). */
  get requests(): readonly RecordedRequest[] {
    return [...this.recorded];
  }

  /** The fault script in use, as it was written. */
  get script(): string {
    return this.scriptText;
  }

  /** The base URL once started (`http://127.0.0.1:PORT/v1`), else null. */
  get url(): string | null {
    return this.baseUrl;
  }

  /** Listens on 127.0.0.1 only and resolves the base URL to give an OpenAI client. */
  async start(): Promise<string> {
    if (this.baseUrl) return this.baseUrl;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/v1`;
    return this.baseUrl;
  }

  /** Stops listening and destroys open sockets, so stalled streams do not keep a test alive. */
  async stop(): Promise<void> {
    if (!this.baseUrl) return;
    this.baseUrl = null;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  /** Replaces the script and rewinds it; throws an Error with the parser's message if malformed. */
  setScript(script: string): void {
    this.cursor = FaultScript.fromScript(script);
    this.scriptText = script;
  }

  clearRequests(): void {
    this.recorded = [];
  }

  /** Clears the recorded requests and rewinds the script to its first step. */
  reset(): void {
    this.clearRequests();
    this.cursor.reset();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
      } else if (error instanceof HttpError) {
        sendJson(res, error.status, errorBody(error.message));
      } else {
        sendJson(res, 500, errorBody(error instanceof Error ? error.message : String(error), 'server_error'));
      }
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, '');
    // A web page may not drive the control routes: a browser's cross-site request carries an Origin,
    // and a POST must be JSON (which needs a CORS preflight this server never grants).
    const isControl = path.startsWith('/__sim/');
    const jsonPost = String(req.headers['content-type'] ?? '').includes('application/json');
    if (isControl && (req.headers.origin || (req.method === 'POST' && !jsonPost))) {
      return sendJson(
        res,
        403,
        errorBody('Requests from web pages are not accepted; send JSON from a local client.', 'forbidden'),
      );
    }
    // "/v1" is optional so both "/v1/chat/completions" and "/chat/completions" work.
    const route = path.startsWith('/v1/') ? path.slice('/v1'.length) : path;
    switch (`${req.method} ${route}`) {
      case 'POST /chat/completions':
        return this.chatCompletion(req, res, path);
      case 'GET /models':
        return sendJson(res, 200, modelList());
      case 'GET /__sim/requests':
        return sendJson(res, 200, this.recorded);
      case 'GET /__sim/script':
        return sendJson(res, 200, { script: this.scriptText });
      case 'POST /__sim/script':
        return this.scriptRoute(req, res);
      case 'POST /__sim/reset':
        this.reset();
        return sendJson(res, 200, { ok: true });
      default:
        return sendJson(res, 404, errorBody(`No route for ${req.method} ${path}.`, 'not_found'));
    }
  }

  private async scriptRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonBody(req);
    const script = typeof body === 'object' && body !== null ? (body as { script?: unknown }).script : undefined;
    if (typeof script !== 'string') throw new HttpError(400, 'The body must be {"script": string}.');
    try {
      this.setScript(script);
    } catch (error) {
      throw new HttpError(400, (error as Error).message);
    }
    sendJson(res, 200, { ok: true, script, steps: this.cursor.steps.length });
  }

  private async chatCompletion(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const parsed = parseCompletionRequest(await readJsonBody(req));
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const request = parsed.value;
    const step = this.cursor.next();
    const index = this.recorded.length;
    this.recorded.push({
      index,
      at: Date.now(),
      path,
      model: request.model,
      apiKey: bearerKey(req),
      lastUserText: lastUserText(request.messages),
      step: step.label,
      messageCount: request.messages.length,
      lastToolResult: lastToolResult(request.messages),
    });
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const created = Math.floor(Date.now() / 1000);
    const context = { id: `chatcmpl-sim-${index}`, model: request.model ?? SIMULATOR_MODEL_ID, created };
    const exchange: Exchange = { res, request, step, context, signal: controller.signal };
    try {
      await this.respond(exchange, faultResponse(step.kind));
    } catch (error) {
      // A client that went away mid-stream is normal (Stop, stall); nothing is left to answer.
      if (!isAbort(error)) throw error;
    }
  }

  private respond(exchange: Exchange, response: FaultResponse): Promise<void> | void {
    switch (response.type) {
      case 'reply':
        return this.reply(exchange, response.speed === 'slow');
      case 'status':
        return this.statusFault(exchange, response);
      case 'broken':
        return this.brokenStream(exchange, response.how);
      case 'tool_call':
        return this.toolCall(exchange);
    }
  }

  private toolCall(exchange: Exchange): void {
    const { res, request, step, context } = exchange;
    const tool = step.tool ?? { name: 'unknown', arguments: '{}' };
    const callId = `call_sim_${context.id}`;
    const usage = usageFor(request, tool.arguments);
    if (!request.isStream)
      return sendJson(res, 200, toolCallCompletion(context, callId, tool.name, tool.arguments, usage));
    this.openStream(exchange);
    for (const chunk of toolCallChunks(context, callId, tool.name, tool.arguments)) this.writeEvent(exchange, chunk);
    if (request.includeUsage) this.writeEvent(exchange, usageChunk(context, usage));
    this.writeEvent(exchange, '[DONE]');
    res.end();
  }

  private statusFault({ res, step }: Exchange, response: Extract<FaultResponse, { type: 'status' }>): void {
    const headers: Record<string, string> = {};
    if (response.sendsRetryAfter && step.retryAfterSeconds !== null)
      headers['retry-after'] = String(step.retryAfterSeconds);
    const body = response.body(step);
    if (body !== null) return sendJson(res, response.status, body, headers);
    res.writeHead(response.status, { ...headers, 'content-length': 0 });
    res.end();
  }

  private async reply(exchange: Exchange, isSlow: boolean): Promise<void> {
    const { res, request, context } = exchange;
    const text = toolResultReply(request.messages) ?? replyText(request.messages);
    const pieces = isSlow ? slowPieces(text) : contentPieces(text);
    const fullText = pieces.join('');
    const usage = usageFor(request, fullText);
    if (!request.isStream) {
      if (isSlow) await sleep(this.slowChunkDelayMs * pieces.length, undefined, { signal: exchange.signal });
      return sendJson(res, 200, completion(context, fullText, usage));
    }
    this.openStream(exchange);
    await this.streamPieces(exchange, pieces, isSlow ? this.slowChunkDelayMs : this.chunkDelayMs);
    this.writeEvent(exchange, completionChunk(context, {}, 'stop'));
    if (request.includeUsage) this.writeEvent(exchange, usageChunk(context, usage));
    this.writeEvent(exchange, '[DONE]');
    res.end();
  }

  private async brokenStream(exchange: Exchange, how: 'reset' | 'drop' | 'stall' | 'malformed'): Promise<void> {
    const { res, request, signal } = exchange;
    if (how === 'drop') {
      res.socket?.destroy();
      return;
    }
    if (!request.isStream) return this.brokenJson(exchange, how);
    this.openStream(exchange);
    const pieces = contentPieces(replyText(request.messages));
    if (how === 'stall') return untilAborted(signal);
    if (how === 'reset') {
      await this.streamPieces(exchange, pieces.slice(0, RESET_AFTER_CHUNKS), this.chunkDelayMs);
      // Give the written chunks time to reach the client before the connection dies.
      await sleep(this.chunkDelayMs, undefined, { signal });
      res.socket?.destroy();
      return;
    }
    await this.streamPieces(exchange, pieces.slice(0, 1), this.chunkDelayMs);
    this.writeRaw(exchange, `data: ${MALFORMED_LINE}\n\n`);
    this.writeEvent(exchange, '[DONE]');
    res.end();
  }

  /** The same faults for `stream: false`: a cut-off body, no body, or a body that is not JSON. */
  private async brokenJson(
    { res, request, context, signal }: Exchange,
    how: 'reset' | 'stall' | 'malformed',
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (how === 'stall') return untilAborted(signal);
    if (how === 'malformed') {
      res.end(MALFORMED_LINE);
      return;
    }
    const text = replyText(request.messages);
    const body = JSON.stringify(completion(context, text, usageFor(request, text)));
    res.write(body.slice(0, Math.floor(body.length / 2)));
    await sleep(this.chunkDelayMs, undefined, { signal });
    res.socket?.destroy();
  }

  /** Sends the SSE headers and the role chunk, which every stream starts with. */
  private openStream(exchange: Exchange): void {
    exchange.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    this.writeEvent(exchange, completionChunk(exchange.context, { role: 'assistant', content: '' }));
  }

  private async streamPieces(exchange: Exchange, pieces: readonly string[], delayMs: number): Promise<void> {
    for (const piece of pieces) {
      await sleep(delayMs, undefined, { signal: exchange.signal });
      this.writeEvent(exchange, completionChunk(exchange.context, { content: piece }));
    }
  }

  private writeEvent(exchange: Exchange, data: object | '[DONE]'): void {
    this.writeRaw(exchange, `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  private writeRaw({ res, signal }: Exchange, text: string): void {
    if (!signal.aborted && !res.destroyed) res.write(text);
  }
}
