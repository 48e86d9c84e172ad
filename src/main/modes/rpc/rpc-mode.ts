// The RPC mode (docs/rpc-protocol.md): `resolute --mode rpc` reads pi-protocol commands from stdin
// as JSON lines, answers each with one response line and writes every session event to stdout as
// it happens. stdout carries JSON lines only; diagnostics go to stderr. A thin adapter: each
// command is one AgentSession (or settings) call. Called by cli.ts (runRpcMode); the tests run the
// built CLI as a child process (test/integration/rpc-mode.test.ts).
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { describeZodError } from '../../../shared/settings';
import { PROVIDER_IDS } from '../../../shared/settings-values';
import { undoParams } from '../../../shared/contract';
import type { AttachmentBlock } from '../../../shared/messages';
import { loadPiRuntime } from '../../core/llm/pi-runtime';
import { modelsFor, resolveModel } from '../../node/providers';
import { startExtensions } from '../extensions/extension-runner';
import { launchApp, type CommonFlags, type LaunchedApp } from '../launch';
import { encodeJsonLine, readJsonLines } from './jsonl';
import { confirmRequest, readUiResponse, spendingCapRequest } from './rpc-approvals';
import {
  UNSUPPORTED_PI_COMMANDS,
  type RpcCommand,
  type RpcCommandOf,
  type RpcCommandType,
  type RpcErrorResponse,
  type RpcId,
  type RpcModel,
  type RpcOutput,
  type RpcResponse,
  type RpcResponseData,
  type RpcSessionState,
  type RpcSuccessResponse,
} from './rpc-types';
import { errorText } from '../../../shared/text';

/** An undo_changes line as the files domain takes it: without RPC's own id and type. */
function withoutRpcFields({ id: _id, type: _type, ...params }: RpcCommandOf<'undo_changes'>) {
  return params;
}

// ---- command validation (zod): each known `type` has its schema; unknown keys are ignored ----

const idField = z.union([z.string().max(200), z.number()]).optional();
const command = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ id: idField, type: z.literal(type), ...shape });
const nonEmpty = z.string().trim().min(1, { error: 'must not be empty' });
const enabled = { enabled: z.boolean() };

const commandSchemas = {
  prompt: command('prompt', {
    message: nonEmpty.max(1_000_000),
    images: z.array(z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() })).optional(),
    streamingBehavior: z.enum(['steer', 'followUp']).optional(),
  }),
  abort: command('abort', {}),
  new_session: command('new_session', { parentSession: z.string().optional() }),
  get_state: command('get_state', {}),
  get_messages: command('get_messages', {}),
  get_session_stats: command('get_session_stats', {}),
  get_last_assistant_text: command('get_last_assistant_text', {}),
  set_model: command('set_model', { provider: nonEmpty, modelId: nonEmpty.max(200) }),
  get_available_models: command('get_available_models', {}),
  set_thinking_level: command('set_thinking_level', {
    level: z.enum(['off', 'minimal', 'low', 'medium', 'high', 'xhigh']),
  }),
  compact: command('compact', { customInstructions: z.string().optional() }),
  set_auto_compaction: command('set_auto_compaction', enabled),
  set_auto_retry: command('set_auto_retry', enabled),
  abort_retry: command('abort_retry', {}),
  get_file_changes: command('get_file_changes', { sessionId: z.string().min(1).max(200).optional() }),
  undo_changes: command('undo_changes', undoParams.shape),
} satisfies { [K in RpcCommandType]: z.ZodType<RpcCommandOf<K>> };

type ParsedLine =
  | { ok: true; command: RpcCommand }
  | { ok: false; response: RpcErrorResponse }
  // An answer to an extension_ui_request: no response line (as in pi).
  | { ok: false; response: null; uiResponse: Record<string, unknown> };

/** Validate one input line. Never throws: a bad line becomes the error response to send. */
function parseCommandLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, response: failure(undefined, 'parse', `Failed to parse command: ${errorText(error)}`) };
  }
  const record =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const id = typeof record?.id === 'string' || typeof record?.id === 'number' ? record.id : undefined;
  if (!record || typeof record.type !== 'string') {
    return {
      ok: false,
      response: failure(id, 'parse', 'Failed to parse command: expected a JSON object with a string "type"'),
    };
  }
  const type = record.type;
  if (type === 'extension_ui_response') return { ok: false, response: null, uiResponse: record };
  if (!Object.hasOwn(commandSchemas, type)) {
    const known = (UNSUPPORTED_PI_COMMANDS as readonly string[]).includes(type);
    return {
      ok: false,
      response: failure(
        id,
        type,
        known ? `Unsupported command: ${type} (Resolute does not offer it)` : `Unknown command: ${type}`,
      ),
    };
  }
  const parsed = commandSchemas[type as RpcCommandType].safeParse(record);
  if (!parsed.success)
    return { ok: false, response: failure(id, type, `Invalid ${type} command: ${describeZodError(parsed.error)}`) };
  return { ok: true, command: parsed.data as RpcCommand };
}

// ---- the server: one switch, one call per case ----

class RpcServer {
  private readonly inFlight = new Set<Promise<void>>();

  /** @param write receives each output record; it must not throw. */
  constructor(
    private readonly app: LaunchedApp,
    private readonly write: (record: RpcOutput) => void,
  ) {}

  /** Handle one input line; resolves once its response was written. Never rejects. */
  handleLine(line: string): Promise<void> {
    if (line.trim() === '') return Promise.resolve();
    const work = this.answer(line);
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  /** Resolves when every command received so far has been answered. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  sendEvent(event: RpcOutput): void {
    this.write(event);
    if (event.type === 'tool_approval_request') this.write(confirmRequest(event.request));
    if (event.type === 'spending_cap_request') this.write(spendingCapRequest(event.request));
  }

  private async answer(line: string): Promise<void> {
    const parsed = parseCommandLine(line);
    if (!parsed.ok && parsed.response === null) return this.answerUi(parsed.uiResponse);
    if (!parsed.ok) return this.write(parsed.response);
    const { command } = parsed;
    try {
      // Synchronous commands are answered in the same tick, so a get_state answer is written
      // right after the state was read: no event can slip in between.
      const result = this.execute(command);
      const response = result instanceof Promise ? await result : result;
      if (response) this.write(response);
    } catch (error) {
      this.write(failure(command.id, command.type, errorText(error)));
    }
  }

  /** A client's answer to a confirm: Allow once or Deny. An unknown id is ignored, as pi does. */
  private answerUi(record: Record<string, unknown>): void {
    const answer = readUiResponse(record);
    const id = typeof record.id === 'string' ? record.id : undefined;
    if (!answer.ok) return this.write(failure(id, 'extension_ui_response', answer.error));
    const { session } = this.app.services;
    if (session.answerApproval(answer.id, answer.choice)) return;
    session.answerSpendingCap(answer.id, answer.choice === 'once' ? 'raise' : 'stop');
  }

  /** Run one validated command. Returns null when the response was already written (prompt). */
  execute(command: RpcCommand): RpcResponse | null | Promise<RpcResponse | null> {
    const { session } = this.app.services;
    switch (command.type) {
      case 'prompt':
        return this.startPrompt(command);
      case 'abort':
        return this.abort(command);
      case 'new_session':
        return reply(command, this.newSession());
      case 'get_state':
        return reply(command, this.state());
      case 'get_messages':
        return reply(command, { messages: session.messages });
      case 'get_session_stats':
        return reply(command, session.stats());
      case 'get_last_assistant_text':
        return reply(command, { text: session.lastAssistantText() });
      case 'set_model':
        return this.setModel(command.provider, command.modelId).then((model) => reply(command, model));
      case 'get_available_models':
        return this.availableModels().then((models) => reply(command, { models }));
      case 'set_thinking_level':
        return ack(command, session.setThinkingLevel(command.level));
      case 'compact':
        return session.compact().then((result) => reply(command, result));
      case 'set_auto_compaction':
        return ack(command, session.setAutoCompactionEnabled(command.enabled));
      case 'set_auto_retry':
        return ack(command, session.setAutoRetryEnabled(command.enabled));
      case 'abort_retry':
        return ack(command, session.abortRetry());
      case 'get_file_changes':
        return reply(command, this.app.services.domains.files.changes(command.sessionId));
      case 'undo_changes':
        return reply(command, this.app.services.domains.files.undo(withoutRpcFields(command)));
    }
  }

  /**
   * pi answers a prompt at once and streams the run as events. The acknowledgement is written
   * before the run starts so that it precedes the run's first event; a failure after that arrives
   * as a second response with the same id (as in pi).
   */
  private startPrompt(command: RpcCommandOf<'prompt'>): null | Promise<null> {
    this.refuseIfBusy();
    const images = command.images ?? [];
    if (images.length === 0) return this.runPrompt(command, []);
    // pi's images are fitted to the model's limits like the window's (a text-only model refuses them).
    const uploads = images.map((image, i) => ({ name: `image-${i + 1}`, mimeType: image.mimeType, data: image.data }));
    return this.app.services.domains.session.prepareAttachments(uploads).then((blocks) => {
      this.refuseIfBusy();
      return this.runPrompt(command, blocks);
    });
  }

  private refuseIfBusy(): void {
    if (this.app.services.session.isBusy) {
      throw new Error(
        'A turn is already running (streaming, retrying or compacting); wait for it to end or send abort.',
      );
    }
  }

  private runPrompt(command: RpcCommandOf<'prompt'>, blocks: AttachmentBlock[]): null {
    this.write(ack(command));
    this.app.services.session
      .prompt(command.message, blocks)
      .catch((error: unknown) => this.write(failure(command.id, 'prompt', errorText(error))));
    return null;
  }

  private newSession(): RpcResponseData['new_session'] {
    // pi's RPC has one conversation: a switch while it works is refused (the windows keep it running
    // in the background instead; docs/architecture.md, "Chats side by side").
    if (this.app.services.session.isBusy)
      throw new Error('Cannot switch sessions while a turn is running; press Stop first.');
    this.app.services.domains.session.newSession();
    return { cancelled: false };
  }

  /** Global abort: cancels a retry chain first, then the stream (AgentSession.abort). */
  private async abort(command: RpcCommandOf<'abort'>): Promise<RpcResponse> {
    await this.app.services.session.abort();
    return ack(command);
  }

  private state(): RpcSessionState {
    const { session } = this.app.services;
    return {
      model: session.model,
      thinkingLevel: session.thinkingLevel,
      isStreaming: session.isStreaming,
      isCompacting: session.isCompacting,
      ...session.queueModes,
      sessionId: session.sessionId,
      ...(session.title ? { sessionName: session.title } : {}),
      autoCompactionEnabled: session.autoCompactionEnabled,
      messageCount: session.messages.length,
      pendingMessageCount: 0,
      autoRetryEnabled: session.autoRetryEnabled,
      isRetrying: session.isRetrying,
      retryAttempt: session.retryAttempt,
      pendingRetry: session.pendingRetry,
    };
  }

  /** pi's set_model: the model must be one the provider offers (any id for an OpenAI-compatible server). */
  private async setModel(providerName: string, modelId: string): Promise<RpcModel> {
    const { services } = this.app;
    await loadPiRuntime();
    const provider = PROVIDER_IDS.find((id) => id === providerName);
    const offered = provider ? modelsFor(provider) : [];
    if (!provider || (offered.length > 0 && !offered.includes(modelId)))
      throw new Error(`Model not found: ${providerName}/${modelId}`);
    // The settings listener of AppServices points the agent at the new model (and persists it).
    services.settings.update({ provider: { id: provider, model: modelId } });
    return services.session.model;
  }

  /** Models that can be used now: the simulator, the configured OpenAI-compatible server, providers with a key. */
  private async availableModels(): Promise<RpcModel[]> {
    const { services } = this.app;
    const current = services.settings.get().provider;
    const simulatorUrl = services.domains.app.info().simulatorUrl;
    return (await services.domains.providers.list()).flatMap((provider) => {
      const usable = provider.id === 'simulator' || provider.keys.length > 0 || provider.hasEnvKey;
      const ids =
        provider.id === 'openai-compatible'
          ? current.id === provider.id
            ? [current.model]
            : []
          : usable
            ? provider.models
            : [];
      return ids.map((model) => resolveModel({ ...current, id: provider.id, model }, simulatorUrl).model);
    });
  }
}

function reply<T extends RpcCommandType>(
  command: { id?: RpcId; type: T },
  data: RpcResponseData[T],
): RpcSuccessResponse<T> {
  return { ...idOf(command.id), type: 'response', command: command.type, success: true, data } as RpcSuccessResponse<T>;
}

/** A success without data, as pi answers these commands; `_effect` is the call the case made. */
function ack<T extends RpcCommandType>(command: { id?: RpcId; type: T }, _effect?: unknown): RpcSuccessResponse<T> {
  return { ...idOf(command.id), type: 'response', command: command.type, success: true } as RpcSuccessResponse<T>;
}

function failure(id: RpcId | undefined, command: string, error: string): RpcErrorResponse {
  return { ...idOf(id), type: 'response', command, success: false, error };
}

function idOf(id: RpcId | undefined): { id?: RpcId } {
  return id === undefined ? {} : { id };
}

// ---- wiring: streams, extensions, shutdown ----

export interface ServeRpcOptions {
  input: Readable;
  /** Receives each output line (terminated by "\n"). */
  writeLine: (line: string) => void;
  /** Diagnostics; default stderr. */
  log?: (line: string) => void;
  /** `--extension` paths, loaded after <dataDir>/extensions. */
  extensionPaths?: string[];
  /** Aborting it stops reading and shuts down without waiting: a running turn is aborted. */
  signal?: AbortSignal;
}

/**
 * Serve the protocol on a launched app until the input ends, then answer what is in flight, let
 * the running prompt (and its retry chain) finish, dispose the app and resolve — so
 * `printf '<prompt>\n' | resolute --mode rpc` runs the prompt to its end. `signal` (SIGTERM, SIGINT)
 * stops at once instead: the running turn is aborted, and history keeps it.
 */
async function serveRpc(app: LaunchedApp, options: ServeRpcOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const write = (record: RpcOutput) => {
    try {
      options.writeLine(encodeJsonLine(record));
    } catch (error) {
      log(`resolute: could not write a ${record.type} record: ${errorText(error)}`);
    }
  };
  const server = new RpcServer(app, write);
  const unsubscribe = app.hub.subscribe((event) => server.sendEvent(event));
  // Raised while starting, before this client could listen.
  for (const { level, message, code, params } of app.services.domains.app.info().notices)
    server.sendEvent({ type: 'notice', level, message, ...(code === undefined ? {} : { code, params }) });
  // A schedule the start took up again (docs/retry-policy.md, "Scheduled retries") announced its
  // retry before this client could listen: tell it, as it was announced.
  const pending = app.services.session.pendingRetry;
  if (pending && !pending.offline) server.sendEvent({ type: 'auto_retry_start', ...pending });
  const extensions = await startExtensions(app, options.extensionPaths ?? [], {
    log,
    onFailure: (failed) => server.sendEvent({ type: 'extension_error', ...failed }),
  });
  const inputEnded = await new Promise<boolean>((resolve) => {
    const stop = readJsonLines(options.input, (line) => void server.handleLine(line), {
      onEnd: () => resolve(true),
      onOversized: (length) =>
        write(failure(undefined, 'parse', `Failed to parse command: line too long (${length} characters)`)),
    });
    options.signal?.addEventListener('abort', () => {
      stop();
      resolve(false);
    });
  });
  await server.settled();
  if (inputEnded) await drain(app, options.signal);
  await app.services.dispose();
  extensions.dispose();
  unsubscribe();
}

/** Wait for the session's pending work unless `signal` aborts first. */
async function drain(app: LaunchedApp, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return;
  const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  await Promise.race([app.services.session.waitForPendingWork(), aborted]);
}

/** Entry point of `--mode rpc` (cli.ts). Exits the process when the input ends. */
export async function runRpcMode(flags: CommonFlags): Promise<void> {
  const stdout = claimStdout();
  const app = await launchApp(flags, 'rpc').catch((error: unknown) => {
    stdout.release();
    throw error;
  });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // EPIPE: the client went away; stop as if it had closed stdin.
  process.stdout.on('error', onSignal);
  await serveRpc(app, {
    input: process.stdin,
    writeLine: stdout.write,
    extensionPaths: flags.extensions,
    signal: stop.signal,
  });
  await stdout.flush();
  process.exit(0);
}

/**
 * Keep stdout for protocol lines: anything else that writes there (console.log in a dependency
 * or an extension) is sent to stderr instead, so a client never sees a line that is not JSON.
 */
function claimStdout(): { write: (line: string) => void; flush: () => Promise<void>; release: () => void } {
  const stdout = process.stdout;
  const original = stdout.write;
  const toStderr = (...args: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(...args);
  stdout.write = toStderr as typeof stdout.write;
  return {
    write: (line) => {
      original.call(stdout, line);
    },
    flush: () => new Promise((resolve) => original.call(stdout, '', 'utf8', () => resolve())),
    release: () => {
      stdout.write = original;
    },
  };
}
