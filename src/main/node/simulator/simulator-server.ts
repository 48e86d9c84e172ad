// The built-in simulator provider: a real HTTP server on 127.0.0.1 that speaks the APIs of the
// providers the app supports — OpenAI Chat Completions and Responses, Anthropic Messages and
// Gemini (streaming and errors, including errors in the middle of a stream) — with deterministic
// replies and scripted faults (fault-script.ts). The app uses it as the default provider and,
// through a base URL, in place of a real provider; the tests drive it over real HTTP and count
// what it saw through `requests` or GET /__sim/requests. Its offline switch (POST /__sim/offline)
// plays a network outage: every connection but the control routes' is dropped unanswered.
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { respond, sendJson, type Exchange } from './exchange';
import { FaultScript } from './fault-script';
import { RequestLog, isControlRoute, routeRequest } from './sim-routing';
import { lastToolResult } from './simulator-tools';
import { SIMULATOR_MODEL_ID } from '../../../shared/settings-values';
import { lastUserText, usageFor, replyText, thinkingText, type WireMessage } from './simulator-replies';
import { wireImages, type WireImage } from './simulator-attachments';
import { anthropicMessages } from './wire-anthropic';
import { gemini } from './wire-gemini';
import { chatCompletions, modelList, responses } from './wire-openai';
import type { WireFormat, WireName } from './wire';
import { errorText } from '../../../shared/text';

export interface SimulatorServerOptions {
  /** TCP port on 127.0.0.1; default 0 = pick a free one. */
  port?: number;
  /** Initial fault script (see fault-script.ts); default "" = always ok. Throws if malformed. */
  script?: string;
  /** Pause between content chunks of a normal reply, in ms; default 15. */
  chunkDelayMs?: number;
  /** Pause between the chunks of a `slow` reply, in ms; default 40. */
  slowChunkDelayMs?: number;
  /** How many of the newest requests GET /__sim/requests keeps; default 500. */
  requestLogLimit?: number;
}

/** One model request as the simulator saw it, recorded before its fault was applied. */
export interface RecordedRequest {
  /** 0-based, in arrival order since the last clear (only the newest are kept). */
  index: number;
  /** Epoch ms. */
  at: number;
  path: string;
  /** Which API it called. */
  api: WireName;
  model: string | null;
  /** From `Authorization: Bearer …`, `x-api-key` (Anthropic) or `x-goog-api-key` / `?key=` (Gemini). */
  apiKey: string | null;
  lastUserText: string;
  /** The script step applied, e.g. "ok", "429:2". */
  step: string;
  messageCount: number;
  /** The newest message's text when it is a tool result (what the model was given), else null. */
  lastToolResult: string | null;
  /** The conversation as this API sent it, each message's role and content (system prompts apart). */
  messages: WireMessage[];
  /** The output cap the request asked for (any API's field), null when it sent none. */
  maxTokens: number | null;
  /**
   * What the request asked of the model's thinking, in its API's own field, null when it sent
   * none: `reasoning_effort` (Chat Completions), `reasoning` (Responses), `thinking` and
   * `output_config` (Anthropic), `generationConfig.thinkingConfig` (Gemini).
   */
  reasoning: Record<string, unknown> | null;
  /** The names of the tools the request offered (any API's shape), in its order. */
  toolNames: string[];
  /** The images of the newest user message, as this API's body carried them. */
  images: WireImage[];
  /** The request body as sent (tests assert each API's shape). */
  body: unknown;
}

/** The thinking fields of a request body, by API (RecordedRequest.reasoning). */
function reasoningOf(body: unknown): Record<string, unknown> | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const gemini = (b.generationConfig as Record<string, unknown> | undefined)?.thinkingConfig;
  const fields = {
    reasoning_effort: b.reasoning_effort,
    reasoning: b.reasoning,
    thinking: b.thinking,
    output_config: b.output_config,
    thinkingConfig: gemini,
  };
  const present = Object.entries(fields).filter(([, value]) => value !== undefined);
  return present.length > 0 ? Object.fromEntries(present) : null;
}

/** The effort a request asked for, as the simulator's thinking names it. */
function effortOf(reasoning: Record<string, unknown> | null): string | null {
  const effort = reasoning?.reasoning_effort ?? (reasoning?.reasoning as Record<string, unknown> | undefined)?.effort;
  return typeof effort === 'string' ? effort : null;
}

/** Tool names from OpenAI's `function.name`, Responses' and Anthropic's `name`, Gemini's declarations. */
function toolNamesOf(body: unknown): string[] {
  const tools = (body as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: Record<string, unknown>) => {
    const declarations = tool.functionDeclarations;
    const named = Array.isArray(declarations) ? declarations : [(tool.function as object | undefined) ?? tool];
    return named.map((d: { name?: unknown }) => d?.name).filter((n): n is string => typeof n === 'string');
  });
}

function lastUserImages(messages: readonly WireMessage[]): WireImage[] {
  const last = messages.findLast((message) => message.role === 'user');
  return last ? (last.images ?? wireImages(last.content)) : [];
}

/** max_tokens, max_completion_tokens, max_output_tokens or Gemini's maxOutputTokens; null for none. */
function maxTokensOf(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const gemini = (b.generationConfig as Record<string, unknown> | undefined)?.maxOutputTokens;
  const value = b.max_tokens ?? b.max_completion_tokens ?? b.max_output_tokens ?? gemini;
  return typeof value === 'number' ? value : null;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
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

function apiKeyOf(req: IncomingMessage, url: URL): string | null {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  return bearer ?? header('x-api-key') ?? header('x-goog-api-key') ?? url.searchParams.get('key');
}

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

/** The API a model route belongs to, and the model a Gemini path names. */
function modelRoute(route: string): { wire: WireFormat; model: string | null; isStream?: boolean } | undefined {
  if (route === '/chat/completions') return { wire: chatCompletions, model: null };
  if (route === '/responses') return { wire: responses, model: null };
  if (route === '/messages') return { wire: anthropicMessages, model: null };
  const google = /^\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(route);
  if (google)
    return { wire: gemini, model: decodeURIComponent(google[1]), isStream: google[2] === 'streamGenerateContent' };
  return undefined;
}

export class SimulatorServer {
  private readonly server: Server;
  private readonly port: number;
  private readonly chunkDelayMs: number;
  private readonly slowChunkDelayMs: number;
  private cursor: FaultScript;
  private scriptText: string;
  private readonly recorded: RequestLog<RecordedRequest>;
  private baseUrl: string | null = null;
  private offline = false;
  private droppedWhileOffline = 0;
  private refusedChecks = 0;
  private readonly scriptListeners = new Set<(usedUp: boolean) => void>();
  private wasUsedUp: boolean;

  constructor(options: SimulatorServerOptions = {}) {
    this.port = options.port ?? 0;
    this.chunkDelayMs = options.chunkDelayMs ?? 15;
    this.slowChunkDelayMs = options.slowChunkDelayMs ?? 40;
    this.scriptText = options.script ?? '';
    this.cursor = FaultScript.fromScript(this.scriptText);
    this.wasUsedUp = this.cursor.isUsedUp;
    this.recorded = new RequestLog(options.requestLogLimit ?? 500);
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** The requests seen since the last clear (a copy). */
  get requests(): readonly RecordedRequest[] {
    return this.recorded.list();
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
    this.noteScriptState();
  }

  /** Whether every step of the script was sent (an empty script is): the badge stops warning. */
  get isScriptUsedUp(): boolean {
    return this.cursor.isUsedUp;
  }

  /** Called when the script becomes used up, or is armed again; returns its own unsubscribe. */
  onScriptState(listener: (usedUp: boolean) => void): () => void {
    this.scriptListeners.add(listener);
    return () => {
      this.scriptListeners.delete(listener);
    };
  }

  private noteScriptState(): void {
    const usedUp = this.cursor.isUsedUp;
    if (usedUp === this.wasUsedUp) return;
    this.wasUsedUp = usedUp;
    for (const listener of this.scriptListeners) listener(usedUp);
  }

  clearRequests(): void {
    this.recorded.clear();
    this.droppedWhileOffline = 0;
    this.refusedChecks = 0;
  }

  /** The offline switch: while on, nothing but the control routes answers (a network outage). */
  setOffline(offline: boolean): void {
    this.offline = offline;
  }

  /** Model requests dropped while offline (they never reached the provider, so they are not in `requests`). */
  get droppedRequests(): number {
    return this.droppedWhileOffline;
  }

  /** The app's reachability checks (HEAD) refused while offline: what a test waits on to know it kept checking. */
  get refusedReachabilityChecks(): number {
    return this.refusedChecks;
  }

  /** Clears the recorded requests and rewinds the script to its first step. */
  reset(): void {
    this.clearRequests();
    this.cursor.reset();
    this.noteScriptState();
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
        sendJson(res, 500, errorBody(errorText(error), 'server_error'));
      }
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const routed = routeRequest(req, (this.server.address() as AddressInfo | null)?.port ?? 0);
    if (!routed.ok) return sendJson(res, routed.status, errorBody(routed.message, routed.type));
    const { route, path } = routed;
    const isControl = isControlRoute(route);
    const model = req.method === 'POST' ? modelRoute(route) : undefined;
    if (this.offline && !isControl) {
      if (model) this.droppedWhileOffline += 1;
      else if (req.method === 'HEAD') this.refusedChecks += 1;
      req.socket.destroy();
      return;
    }
    // The app's reachability check (a HEAD to the host) is answered without touching the script.
    if (req.method === 'HEAD' && !isControl) {
      res.writeHead(204);
      res.end();
      return;
    }
    if (model) return this.modelRequest(req, res, path, model);
    switch (`${req.method} ${route}`) {
      case 'GET /models':
        return sendJson(res, 200, modelList());
      case 'GET /__sim/requests':
        return sendJson(res, 200, this.recorded.list());
      case 'GET /__sim/script':
        return sendJson(res, 200, { script: this.scriptText });
      case 'POST /__sim/script':
        return this.scriptRoute(req, res);
      case 'POST /__sim/reset':
        this.reset();
        return sendJson(res, 200, { ok: true });
      case 'GET /__sim/offline':
        return sendJson(res, 200, { offline: this.offline, dropped: this.droppedWhileOffline });
      case 'POST /__sim/offline':
        return this.offlineRoute(req, res);
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
    sendJson(res, 200, { ok: true, script, steps: this.cursor.stepCount });
  }

  private async offlineRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonBody(req);
    const offline = typeof body === 'object' && body !== null ? (body as { offline?: unknown }).offline : undefined;
    if (typeof offline !== 'boolean') throw new HttpError(400, 'The body must be {"offline": boolean}.');
    this.setOffline(offline);
    sendJson(res, 200, { ok: true, offline });
  }

  private async modelRequest(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    route: NonNullable<ReturnType<typeof modelRoute>>,
  ): Promise<void> {
    const body = await readJsonBody(req);
    const parsed = route.wire.parse(body, route.model);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const request = { ...parsed.value, isStream: route.isStream ?? parsed.value.isStream };
    const step = this.cursor.next(request.model);
    this.noteScriptState();
    const index = this.recorded.nextIndex;
    this.recorded.add({
      index,
      at: Date.now(),
      path,
      api: route.wire.name,
      model: request.model,
      apiKey: apiKeyOf(req, new URL(req.url ?? '/', 'http://127.0.0.1')),
      lastUserText: lastUserText(request.messages),
      step: step.label,
      messageCount: request.messages.length,
      lastToolResult: lastToolResult(request.messages),
      messages: request.messages,
      maxTokens: maxTokensOf(body),
      reasoning: reasoningOf(body),
      toolNames: toolNamesOf(body),
      images: lastUserImages(request.messages),
      body,
    });
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const thinking = thinkingText(request.messages, effortOf(reasoningOf(body)));
    const context = {
      id: `sim-${index}`,
      model: request.model ?? SIMULATOR_MODEL_ID,
      created: Math.floor(Date.now() / 1000),
      usage: usageFor(request.messages, `${thinking ?? ''}${replyText(request.messages)}`),
      includeUsage: request.includeUsage,
    };
    const exchange: Exchange = {
      res,
      wire: route.wire,
      request,
      step,
      context,
      signal: controller.signal,
      chunkDelayMs: this.chunkDelayMs,
      slowChunkDelayMs: this.slowChunkDelayMs,
      thinking,
    };
    try {
      await respond(exchange);
    } catch (error) {
      // A client that went away mid-stream is normal (Stop, stall); nothing is left to answer.
      if (!isAbort(error)) throw error;
    }
  }
}
