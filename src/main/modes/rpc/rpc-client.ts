// RpcClient: drives `resolute --mode rpc` (or any command speaking the same protocol) as a child
// process — typed commands with id correlation, session events through onEvent, and a
// waitForIdle that survives retry chains. Used by the integration tests and by tools embedding
// Resolute; speaks pi's RPC protocol, so it also works against pi where the commands overlap.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { SessionEvent } from '../../../shared/events';
import type { ChatMessage } from '../../../shared/messages';
import { encodeJsonLine, readJsonLines } from './jsonl';
import type {
  RpcCommand,
  RpcCommandOf,
  RpcCommandType,
  RpcCompactionResult,
  RpcEvent,
  RpcModel,
  RpcOutput,
  RpcResponse,
  RpcResponseData,
  RpcSessionState,
  RpcSessionStats,
} from './rpc-types';

export interface RpcClientOptions {
  /** The built CLI, run with this Node; default <cwd>/out/main/cli.js. Ignored when `command` is set. */
  cliPath?: string;
  /** Run this program instead of `node <cliPath>`; `commandArgs` come before `--mode rpc`. */
  command?: string;
  commandArgs?: string[];
  /** More CLI flags after `--mode rpc`, e.g. ['--base-url', url, '--data-dir', dir]. */
  args?: string[];
  cwd?: string;
  /** Added to the parent's environment. */
  env?: Record<string, string>;
  /** How long a command may wait for its response, ms; default 30000. */
  requestTimeoutMs?: number;
}

export type RpcEventListener = (event: RpcEvent) => void;

type Body<C> = C extends unknown ? Omit<C, 'id'> : never;
export type RpcCommandBody = Body<RpcCommand>;

interface Pending {
  resolve: (response: RpcResponse) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** How often waitForIdle re-asks get_state when no event arrives, ms. */
const IDLE_POLL_MS = 250;

export class RpcClient {
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<RpcEventListener>();
  private readonly outputListeners = new Set<(record: RpcOutput) => void>();
  private readonly wakers = new Set<() => void>();
  private nextId = 0;
  private hasExited = false;
  private stderrText = '';
  /** stdout lines that were not JSON: the protocol promises there are none. */
  readonly nonJsonLines: string[] = [];
  // What the event stream says is going on, for waitForIdle.
  private awaitingRun = false;
  private running = false;
  private retrying = false;
  private compacting = false;

  constructor(private readonly options: RpcClientOptions = {}) {}

  get stderr(): string {
    return this.stderrText;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawn the process and wait until it answers get_state (so a start-up failure rejects here). */
  async start(): Promise<RpcSessionState> {
    if (this.child) throw new Error('RpcClient already started');
    const { command, commandArgs = [], cliPath, args = [], cwd, env } = this.options;
    const program = command ?? process.execPath;
    const programArgs = command ? commandArgs : [resolve(cwd ?? process.cwd(), cliPath ?? 'out/main/cli.js')];
    const child = spawn(program, [...programArgs, '--mode', 'rpc', ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.stderrText += text;
    });
    // A command written after the child died must not crash the parent with EPIPE.
    child.stdin?.on('error', () => undefined);
    if (child.stdout) readJsonLines(child.stdout, (line) => this.onLine(line));
    this.exited = new Promise((done) => {
      child.once('error', (error) => {
        this.stderrText += `spawn failed: ${error.message}\n`;
        done(null);
      });
      child.once('exit', (code) => done(code));
    });
    void this.exited.then((code) => {
      this.hasExited = true;
      this.failAll(`RPC process exited (code ${code})`);
    });
    return this.getState();
  }

  /**
   * Close stdin (the server's clean shutdown) and wait for the exit; escalate to SIGTERM and
   * SIGKILL if it takes longer than `graceMs`. Resolves with the exit code (null when killed).
   */
  async stop(graceMs = 5000): Promise<number | null> {
    const child = this.child;
    if (!child || !this.exited) return null;
    child.stdin?.end();
    const exitedIn = (ms: number) =>
      Promise.race([
        this.exited!.then(() => true),
        new Promise<boolean>((done) => setTimeout(() => done(false), ms).unref()),
      ]);
    if (!(await exitedIn(graceMs))) {
      child.kill('SIGTERM');
      if (!(await exitedIn(2000))) child.kill('SIGKILL');
    }
    return this.exited;
  }

  /** Session events (and extension_error); returns its own unsubscribe. */
  onEvent(listener: RpcEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every stdout record, responses included (e.g. the error answering a line that had no id). */
  onOutput(listener: (record: RpcOutput) => void): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  // ---- commands ----

  /** Start a prompt; resolves on the server's acknowledgement. Use waitForIdle for the outcome. */
  async prompt(message: string): Promise<void> {
    this.awaitingRun = true;
    try {
      await this.call({ type: 'prompt', message });
    } catch (error) {
      this.awaitingRun = false;
      throw error;
    }
  }

  async abort(): Promise<void> {
    await this.call({ type: 'abort' });
  }

  async newSession(): Promise<{ cancelled: boolean }> {
    return this.call({ type: 'new_session' });
  }

  async getState(): Promise<RpcSessionState> {
    return this.call({ type: 'get_state' });
  }

  async getMessages(): Promise<ChatMessage[]> {
    return (await this.call({ type: 'get_messages' })).messages;
  }

  async getSessionStats(): Promise<RpcSessionStats> {
    return this.call({ type: 'get_session_stats' });
  }

  async getLastAssistantText(): Promise<string | null> {
    return (await this.call({ type: 'get_last_assistant_text' })).text;
  }

  async setModel(provider: string, modelId: string): Promise<RpcModel> {
    return this.call({ type: 'set_model', provider, modelId });
  }

  async getAvailableModels(): Promise<RpcModel[]> {
    return (await this.call({ type: 'get_available_models' })).models;
  }

  async setThinkingLevel(level: RpcCommandOf<'set_thinking_level'>['level']): Promise<void> {
    await this.call({ type: 'set_thinking_level', level });
  }

  async setAutoRetry(enabled: boolean): Promise<void> {
    await this.call({ type: 'set_auto_retry', enabled });
  }

  /** Cancel the retry chain; its auto_retry_end {finalError: "Retry cancelled"} arrives as an event. */
  async abortRetry(): Promise<void> {
    await this.call({ type: 'abort_retry' });
  }

  async setAutoCompaction(enabled: boolean): Promise<void> {
    await this.call({ type: 'set_auto_compaction', enabled });
  }

  /** Answer an extension_ui_request (a tool call's confirm): true = allow once, false = deny. */
  respondToUi(id: string, confirmed: boolean): void {
    this.writeRaw(encodeJsonLine({ type: 'extension_ui_response', id, confirmed }));
  }

  async compact(customInstructions?: string): Promise<RpcCompactionResult> {
    return this.call({ type: 'compact', ...(customInstructions === undefined ? {} : { customInstructions }) });
  }

  /** Send a command and return its data; a failure response rejects with the server's message. */
  async call<T extends RpcCommandType>(command: Extract<RpcCommandBody, { type: T }>): Promise<RpcResponseData[T]> {
    const response = await this.request(command);
    if (!response.success) throw new Error(response.error);
    return ('data' in response ? response.data : undefined) as RpcResponseData[T];
  }

  /** Send a command and return the raw response, failures included. */
  request(command: RpcCommandBody): Promise<RpcResponse> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable || this.hasExited)
      return Promise.reject(new Error(`RpcClient is not running. stderr:\n${this.stderrText}`));
    const id = `req_${++this.nextId}`;
    const timeoutMs = this.options.requestTimeoutMs ?? 30_000;
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`No response to ${command.type} within ${timeoutMs} ms. stderr:\n${this.stderrText}`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolvePromise, reject, timer });
      stdin.write(encodeJsonLine({ ...command, id }));
    });
  }

  /** Write raw text to the server's stdin (framing tests: CRLF, garbage, split chunks). */
  writeRaw(text: string | Uint8Array): void {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable || this.hasExited) throw new Error('RpcClient is not running');
    stdin.write(text);
  }

  // ---- waiting ----

  /**
   * Resolve when the session is idle: no run streaming, no retry chain, no compaction.
   * agent_end alone is not enough — it also ends every failed attempt of a retry chain, and
   * auto_retry_start follows it — so the client tracks the event stream and then confirms with
   * get_state, whose answer is written after everything the server did for that agent_end.
   * Without events it re-asks every 250 ms, so a missed event cannot hang it.
   */
  async waitForIdle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.locallyBusy()) {
        const state = await this.getState();
        if (!state.isStreaming && !state.isRetrying && !state.isCompacting && !this.locallyBusy()) return;
      }
      await this.nextWake(deadline, 'waiting for the session to become idle');
    }
  }

  /**
   * Collect events from now until the next agent_end after which the session is idle (a whole
   * retry chain is one collection). Call it before the command that starts the run.
   */
  async collectEvents(timeoutMs = 60_000): Promise<RpcEvent[]> {
    const deadline = Date.now() + timeoutMs;
    const events: RpcEvent[] = [];
    let sawAgentEnd = false;
    const unsubscribe = this.onEvent((event) => {
      events.push(event);
      if (event.type === 'agent_end') sawAgentEnd = true;
    });
    try {
      while (!sawAgentEnd) await this.nextWake(deadline, 'waiting for agent_end');
      await this.waitForIdle(Math.max(1, deadline - Date.now()));
      return events;
    } finally {
      unsubscribe();
    }
  }

  /** prompt + collectEvents: every event of one logical prompt, retries included. */
  async promptAndWait(message: string, timeoutMs = 60_000): Promise<RpcEvent[]> {
    const collected = this.collectEvents(timeoutMs);
    // collectEvents rejects on its own deadline; keep that from surfacing as unhandled meanwhile.
    collected.catch(() => undefined);
    await this.prompt(message);
    return collected;
  }

  // ---- internals ----

  private locallyBusy(): boolean {
    return this.awaitingRun || this.running || this.retrying || this.compacting;
  }

  private nextWake(deadline: number, what: string): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) return Promise.reject(new Error(`Timed out ${what}. stderr:\n${this.stderrText}`));
    return new Promise((done) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        done();
      };
      const timer = setTimeout(wake, Math.min(IDLE_POLL_MS, left));
      this.wakers.add(wake);
    });
  }

  private onLine(line: string): void {
    let record: RpcOutput;
    try {
      record = JSON.parse(line) as RpcOutput;
    } catch {
      this.nonJsonLines.push(line);
      return;
    }
    for (const listener of [...this.outputListeners]) listener(record);
    if (record.type === 'response') return this.onResponse(record);
    this.track(record);
    for (const listener of [...this.listeners]) listener(record);
    for (const wake of [...this.wakers]) wake();
  }

  private onResponse(response: RpcResponse): void {
    // A prompt that failed after its acknowledgement will never start a run.
    if (response.command === 'prompt' && !response.success) this.awaitingRun = false;
    const pending = typeof response.id === 'string' ? this.pending.get(response.id) : undefined;
    if (!pending) return;
    this.pending.delete(response.id as string);
    clearTimeout(pending.timer);
    pending.resolve(response);
  }

  private track(event: RpcEvent): void {
    switch (event.type) {
      case 'agent_start':
        this.awaitingRun = false;
        this.running = true;
        break;
      case 'agent_end':
        this.running = false;
        break;
      case 'auto_retry_start':
        this.retrying = true;
        break;
      case 'auto_retry_end':
        this.retrying = false;
        break;
      case 'auto_compaction_start':
        this.compacting = true;
        break;
      case 'auto_compaction_end':
        this.compacting = false;
        break;
    }
  }

  private failAll(reason: string): void {
    this.running = this.retrying = this.compacting = this.awaitingRun = false;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error(`${reason}. stderr:\n${this.stderrText}`));
      this.pending.delete(id);
    }
    for (const wake of [...this.wakers]) wake();
  }
}

export type { RpcEvent, RpcSessionState, SessionEvent };
