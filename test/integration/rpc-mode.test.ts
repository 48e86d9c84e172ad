// Integration tests of `resolute --mode rpc`: the BUILT CLI (out/main/cli.js, rebuilt first when
// older than src/; or $RESOLUTE_CLI as it is) is spawned through RpcClient against a SimulatorServer over real HTTP. They check the retry
// chain as events and request counts, abort_retry, set_auto_retry, get_state, JSON-lines framing,
// error responses for bad lines, and extensions (recording and throwing ones).
import { Buffer } from 'node:buffer';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AutoRetryEndEvent, AutoRetryStartEvent } from '../../src/shared/events';
import { RpcClient } from '../fixtures/rpc-client';
import type { RpcEvent, RpcOutput } from '../../src/main/modes/rpc/rpc-types';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import { rebuildIfStale } from '../../scripts/ensure-build.js';
import { AppServices } from '../../src/main/node/app-services';

const CLI = process.env.RESOLUTE_CLI ?? resolve('out/main/cli.js');
const sim = new SimulatorServer({ chunkDelayMs: 1 });
let simUrl = '';
let dataDir = '';
const clients: RpcClient[] = [];

/** A build under load can take a while; it runs only when out/ is stale. */
const BUILD_TIMEOUT_MS = 120_000;

beforeAll(async () => {
  if (process.env.RESOLUTE_CLI) {
    if (!existsSync(CLI)) throw new Error(`RESOLUTE_CLI=${CLI} does not exist`);
  } else {
    rebuildIfStale({ quiet: true });
  }
  simUrl = await sim.start();
}, BUILD_TIMEOUT_MS);
afterAll(() => sim.stop());
beforeEach(() => {
  sim.setScript('');
  sim.clearRequests();
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-rpc-'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Start the CLI in RPC mode against the test's simulator; `listen` subscribes before start-up. */
async function startClient(
  options: { set?: string[]; args?: string[]; env?: Record<string, string>; listen?: (event: RpcEvent) => void } = {},
): Promise<RpcClient> {
  const sets = ['retry.baseDelayMs=20', 'retry.jitterMaxMs=0', ...(options.set ?? [])].flatMap((s) => ['--set', s]);
  const client = new RpcClient({
    cliPath: CLI,
    args: ['--base-url', simUrl, '--model', 'resolute-sim-1', '--data-dir', dataDir, ...sets, ...(options.args ?? [])],
    // The openai SDK would log a failed request to stderr; keep the output readable.
    env: { OPENAI_LOG: 'off', ...options.env },
  });
  clients.push(client);
  if (options.listen) client.onEvent(options.listen);
  await client.start();
  return client;
}

const retryStarts = (events: RpcEvent[]) =>
  events.filter((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
const retryEnds = (events: RpcEvent[]) => events.filter((e): e is AutoRetryEndEvent => e.type === 'auto_retry_end');

function nextEvent<T extends RpcEvent['type']>(
  client: RpcClient,
  type: T,
  timeoutMs = 10_000,
): Promise<Extract<RpcEvent, { type: T }>> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${type} event within ${timeoutMs} ms. stderr:\n${client.stderr}`));
    }, timeoutMs);
    const unsubscribe = client.onEvent((event) => {
      if (event.type !== type) return;
      clearTimeout(timer);
      unsubscribe();
      resolvePromise(event as Extract<RpcEvent, { type: T }>);
    });
  });
}

describe('start-up notices over RPC', () => {
  it('a damaged settings file is reported as a notice event when the RPC mode starts', async () => {
    writeFileSync(join(dataDir, 'settings.json'), '{ "retry": { "maxRetries": 7');
    const seen: RpcEvent[] = [];
    const client = await startClient({ listen: (event) => seen.push(event) });
    await client.getState();
    expect(seen).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        level: 'error',
        message: expect.stringMatching(/settings file was invalid/),
        // The code and its parameters ride along; an RPC client may ignore them.
        code: 'settings_invalid',
        params: { detail: expect.any(String), aside: expect.stringContaining('settings.json.invalid-') },
      }),
    );
  });
});

describe('the API key off the command line', () => {
  const cmdline = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

  it('RESOLUTE_API_KEY reaches the provider and is not in /proc/<pid>/cmdline', async () => {
    const key = 'sk-from-environment-0123456789abcdef';
    const client = await startClient({ env: { RESOLUTE_API_KEY: key } });
    await client.promptAndWait('hello');
    expect(sim.requests.map((r) => r.apiKey)).toEqual([key]);
    if (existsSync('/proc/self/cmdline')) expect(cmdline(client.pid!)).not.toContain(key);
  });

  it('--api-key-file reaches the provider; only the path is on the command line', async () => {
    const key = 'sk-from-a-file-fedcba9876543210';
    const file = join(dataDir, 'key.txt');
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    const client = await startClient({ args: ['--api-key-file', file] });
    await client.promptAndWait('hello');
    expect(sim.requests.map((r) => r.apiKey)).toEqual([key]);
    if (existsSync('/proc/self/cmdline')) expect(cmdline(client.pid!)).not.toContain(key);
  });

  it('--help says that --api-key is visible to other local users and names the alternatives', async () => {
    const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/--api-key KEY.*visible to other\s+(local )?users/s);
    expect(help.stdout).toContain('RESOLUTE_API_KEY');
    expect(help.stdout).toContain('--api-key-file');
  });
});

describe('a crash in the middle of a retry chain', () => {
  it('leaves no chain pending: the next start closes it as interrupted and says so', async () => {
    sim.setScript('503*');
    const client = await startClient({ set: ['retry.baseDelayMs=30000'] });
    const started = nextEvent(client, 'auto_retry_start');
    await client.prompt('cut me off');
    const { chainId } = await started;
    const { sessionId } = await client.getState();
    process.kill(client.pid!, 'SIGKILL');
    await client.stop();

    const services = await AppServices.create({ host: 'rpc', version: 'test', dataDir, publish: () => undefined });
    try {
      const chains = services.history.getSession(sessionId)?.chains ?? [];
      expect(chains).toEqual([
        expect.objectContaining({ id: chainId, outcome: 'interrupted', endedAt: expect.any(Number) }),
      ]);
      expect(services.domains.app.info().notices).toContainEqual(
        expect.objectContaining({
          message: expect.stringMatching(/1 retry chain .*interrupted/),
          code: 'interrupted_chains',
          params: { count: 1 },
        }),
      );
    } finally {
      await services.dispose();
    }
  });
});

describe('retry chain over RPC', () => {
  it('succeeds after two 503s: auto_retry_start 1 and 2, then auto_retry_end success at attempt 2; 3 requests', async () => {
    sim.setScript('503,503,ok');
    const client = await startClient();
    const events = await client.promptAndWait('Hello there');

    expect(retryStarts(events).map((e) => [e.attempt, e.maxAttempts, e.delayMs])).toEqual([
      [1, 3, 20],
      [2, 3, 40],
    ]);
    expect(retryStarts(events)[0].errorMessage).toMatch(/503/);
    expect(retryEnds(events)).toEqual([expect.objectContaining({ success: true, attempt: 2 })]);
    expect(retryEnds(events)[0]).not.toHaveProperty('finalError');
    const order = events.map((e) => e.type).filter((t) => t.startsWith('auto_retry'));
    expect(order).toEqual(['auto_retry_start', 'auto_retry_start', 'auto_retry_end']);
    expect(sim.requests).toHaveLength(3);
    expect(await client.getLastAssistantText()).toMatch(/^Simulated reply: I received "Hello there"/);
    expect((await client.getState()).isRetrying).toBe(false);
    expect(client.nonJsonLines).toEqual([]);
  });

  it('exhausts maxRetries 3: auto_retry_end {success: false, attempt: 3}; 4 requests', async () => {
    sim.setScript('503*');
    const client = await startClient({ set: ['retry.maxRetries=3'] });
    const events = await client.promptAndWait('Hello there');

    expect(retryStarts(events).map((e) => e.attempt)).toEqual([1, 2, 3]);
    const [end] = retryEnds(events);
    expect(retryEnds(events)).toHaveLength(1);
    expect(end).toMatchObject({ success: false, attempt: 3 });
    expect(end.finalError).toMatch(/503/);
    expect(sim.requests).toHaveLength(4);
    const messages = await client.getMessages();
    const last = messages[messages.length - 1];
    expect(last.role === 'assistant' && last.stopReason).toBe('error');
  });

  it('abort_retry during a backoff: get_state shows the waiting chain, then "Retry cancelled" and no further request', async () => {
    sim.setScript('503*');
    // Long enough for get_state and abort_retry to land inside it, short enough to watch it run out.
    const client = await startClient({ set: ['retry.baseDelayMs=3000'] });
    const started = nextEvent(client, 'auto_retry_start');
    await client.prompt('Hello there');
    expect(await started).toMatchObject({ attempt: 1, delayMs: 3000 });

    const waiting = await client.getState();
    expect(waiting).toMatchObject({ autoRetryEnabled: true, isRetrying: true, retryAttempt: 1, isStreaming: false });
    expect(waiting.pendingRetry).toMatchObject({ attempt: 1, delayMs: 3000 });

    const ended = nextEvent(client, 'auto_retry_end');
    await client.abortRetry();
    expect(await ended).toMatchObject({ success: false, attempt: 1, finalError: 'Retry cancelled' });
    await client.waitForIdle(5000);
    expect(await client.getState()).toMatchObject({ isRetrying: false, retryAttempt: 0, pendingRetry: null });
    // The cancelled retry was due at retryAt: watch until just past it. It must never go out.
    const quietUntil = waiting.pendingRetry!.retryAt + 500;
    await new Promise((r) => setTimeout(r, Math.max(0, quietUntil - Date.now())));
    expect(sim.requests).toHaveLength(1);
  });

  it('set_auto_retry false: no retry, one request, get_state says so; true turns it back on', async () => {
    sim.setScript('503,ok');
    const client = await startClient();
    expect((await client.getState()).autoRetryEnabled).toBe(true);
    await client.setAutoRetry(false);
    expect((await client.getState()).autoRetryEnabled).toBe(false);

    const events = await client.promptAndWait('Hello there');
    expect(retryStarts(events)).toEqual([]);
    expect(retryEnds(events)).toEqual([]);
    expect(sim.requests).toHaveLength(1);
    expect(events.filter((e) => e.type === 'agent_end')).toHaveLength(1);

    await client.setAutoRetry(true);
    expect((await client.getState()).autoRetryEnabled).toBe(true);
  });

  it('waitForIdle does not return at the agent_end of a failed attempt', async () => {
    sim.setScript('503,ok');
    const client = await startClient({ set: ['retry.baseDelayMs=300'] });
    const agentEnds: number[] = [];
    client.onEvent((event) => {
      if (event.type === 'agent_end') agentEnds.push(Date.now());
    });
    await client.prompt('Hello there');
    await client.waitForIdle(10_000);
    expect(agentEnds).toHaveLength(2);
    expect(sim.requests).toHaveLength(2);
  });
});

describe('protocol and framing', () => {
  it('answers get_state with pi fields plus autoRetryEnabled and isRetrying, and correlates ids', async () => {
    const client = await startClient();
    const state = await client.getState();
    for (const key of [
      'model',
      'thinkingLevel',
      'isStreaming',
      'isCompacting',
      'steeringMode',
      'followUpMode',
      'sessionId',
      'autoCompactionEnabled',
      'messageCount',
      'pendingMessageCount',
      'autoRetryEnabled',
      'isRetrying',
    ]) {
      expect(state).toHaveProperty(key);
    }
    expect(state.model).toMatchObject({ id: 'resolute-sim-1', baseUrl: simUrl });
    const [a, b] = await Promise.all([client.request({ type: 'get_messages' }), client.request({ type: 'get_state' })]);
    expect([a.command, b.command]).toEqual(['get_messages', 'get_state']);
  });

  it('a usage limit switches to the fallback model: get_state shows it, and set_model still chooses', async () => {
    const fallback = JSON.stringify([{ provider: 'openai-compatible', model: 'resolute-sim-2' }]);
    const client = await startClient({ set: [`providers.fallback=${fallback}`] });
    sim.setScript('@resolute-sim-1 usage_limit:0*');
    const events = await client.promptAndWait('over the limit');
    expect(retryStarts(events)).toEqual([
      expect.objectContaining({
        delayMs: 0,
        switchedModel: {
          from: { provider: 'openai-compatible', model: 'resolute-sim-1' },
          to: { provider: 'openai-compatible', model: 'resolute-sim-2' },
        },
      }),
    ]);
    expect(sim.requests.map((r) => r.model)).toEqual(['resolute-sim-1', 'resolute-sim-2']);
    expect((await client.getState()).model).toMatchObject({ id: 'resolute-sim-2', baseUrl: simUrl });
    await client.setModel('openai-compatible', 'resolute-sim-3');
    expect((await client.getState()).model).toMatchObject({ id: 'resolute-sim-3' });
    await client.promptAndWait('on the chosen model');
    expect(sim.requests.at(-1)?.model).toBe('resolute-sim-3');
  });

  it('an overload fails over to the fallback model: the same events, get_state follows, the next prompt goes back', async () => {
    const fallback = JSON.stringify([{ provider: 'openai-compatible', model: 'resolute-sim-2' }]);
    const client = await startClient({ set: [`providers.fallback=${fallback}`] });
    sim.setScript('@resolute-sim-1 overloaded*');
    const events = await client.promptAndWait('overloaded');
    expect(sim.requests.map((r) => r.model)).toEqual([...Array(4).fill('resolute-sim-1'), 'resolute-sim-2']);
    expect(retryStarts(events).at(-1)).toMatchObject({
      category: 'overloaded',
      delayMs: 0,
      switchedModel: {
        from: { provider: 'openai-compatible', model: 'resolute-sim-1' },
        to: { provider: 'openai-compatible', model: 'resolute-sim-2' },
      },
    });
    expect(retryEnds(events)).toEqual([expect.objectContaining({ success: true, outcome: 'recovered' })]);
    expect(events.filter((e) => e.type === 'model_changed').at(-1)).toMatchObject({ model: { id: 'resolute-sim-2' } });
    expect((await client.getState()).model).toMatchObject({ id: 'resolute-sim-2', baseUrl: simUrl });
    sim.setScript('');
    const next = await client.promptAndWait('and again');
    expect(sim.requests.at(-1)?.model).toBe('resolute-sim-1');
    expect(next.filter((e) => e.type === 'model_changed').at(-1)).toMatchObject({ model: { id: 'resolute-sim-1' } });
    expect((await client.getState()).model).toMatchObject({ id: 'resolute-sim-1' });
  });

  it('model, session and compaction commands answer in pi shapes', async () => {
    const client = await startClient();
    const models = await client.getAvailableModels();
    expect(models).toContainEqual(
      expect.objectContaining({ provider: 'openai-compatible', id: 'resolute-sim-1', baseUrl: simUrl }),
    );
    expect(models).toContainEqual(expect.objectContaining({ provider: 'simulator' }));

    expect(await client.setModel('openai-compatible', 'other-model')).toMatchObject({
      id: 'other-model',
      baseUrl: simUrl,
    });
    expect((await client.getState()).model).toMatchObject({ id: 'other-model' });
    await expect(client.setModel('nowhere', 'x')).rejects.toThrow('Model not found: nowhere/x');
    await client.setModel('openai-compatible', 'resolute-sim-1');

    await client.setAutoCompaction(false);
    expect((await client.getState()).autoCompactionEnabled).toBe(false);
    await client.setThinkingLevel('low');
    expect((await client.getState()).thinkingLevel).toBe('low');
    await expect(client.compact()).rejects.toThrow(/no older conversation/);

    await client.promptAndWait('Hello there');
    expect(await client.getSessionStats()).toMatchObject({ userMessages: 1, assistantMessages: 1, totalMessages: 2 });
    const before = await client.getState();
    expect(before).toMatchObject({ messageCount: 2, sessionName: 'Hello there' });
    expect(await client.newSession()).toEqual({ cancelled: false });
    const after = await client.getState();
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(after.messageCount).toBe(0);
    expect(await client.getLastAssistantText()).toBeNull();
  });

  it('round-trips a prompt holding U+2028/U+2029 sent with \\r\\n, and a command cut inside a UTF-8 character', async () => {
    const client = await startClient();
    const outputs: RpcOutput[] = [];
    client.onOutput((record) => outputs.push(record));
    const text = 'first\u2028second\u2029third';
    const collected = client.collectEvents(10_000);
    client.writeRaw(`${JSON.stringify({ type: 'prompt', id: 'crlf', message: text })}\r\n`);
    const events = await collected;

    expect(outputs).toContainEqual({ type: 'response', command: 'prompt', success: true, id: 'crlf' });
    expect(sim.requests[0].lastUserText).toBe(text);
    const user = (await client.getMessages())[0];
    expect(user.role === 'user' && user.content).toEqual([{ type: 'text', text }]);
    // The event stream carries the raw separators too (the simulator's reply normalises them).
    const echoed = events.find((e) => e.type === 'message_end' && e.message.role === 'user');
    expect(echoed?.type === 'message_end' && echoed.message.content).toEqual([{ type: 'text', text }]);

    const bytes = Buffer.from(`${JSON.stringify({ type: 'get_state', id: 'é😀' })}\n`, 'utf8');
    const cut = bytes.indexOf(0xf0) + 2; // inside the emoji's four bytes
    client.writeRaw(bytes.subarray(0, cut));
    await new Promise((r) => setTimeout(r, 50));
    client.writeRaw(bytes.subarray(cut));
    await vi.waitFor(() =>
      expect(outputs.some((o) => o.type === 'response' && o.id === 'é😀' && o.success)).toBe(true),
    );
    expect(client.nonJsonLines).toEqual([]);
  });

  it('answers garbage and bad commands with error responses and keeps running', async () => {
    const client = await startClient();
    const errors: RpcOutput[] = [];
    client.onOutput((record) => {
      if (record.type === 'response' && !record.success) errors.push(record);
    });
    client.writeRaw('this is not json\n[1,2]\n{"type":42}\n\n{"type":"bogus","id":"x"}\n');
    client.writeRaw(
      '{"type":"set_auto_retry","id":"y"}\n{"type":"steer","id":"z","message":"m"}\n{"type":"prompt","id":"w","message":"  "}\n',
    );
    await vi.waitFor(() => expect(errors).toHaveLength(7));

    expect(errors.map((e) => [e.type === 'response' && e.command, 'id' in e ? e.id : undefined])).toEqual([
      ['parse', undefined],
      ['parse', undefined],
      ['parse', undefined],
      ['bogus', 'x'],
      ['set_auto_retry', 'y'],
      ['steer', 'z'],
      ['prompt', 'w'],
    ]);
    const messages = errors.map((e) => (e.type === 'response' && !e.success ? e.error : ''));
    expect(messages[0]).toMatch(/^Failed to parse command/);
    expect(messages[3]).toBe('Unknown command: bogus');
    expect(messages[4]).toMatch(/^Invalid set_auto_retry command: enabled/);
    expect(messages[5]).toMatch(/^Unsupported command: steer/);
    expect(messages[6]).toMatch(/message: must not be empty/);

    expect((await client.getState()).sessionId).toBeTruthy();
    expect(client.nonJsonLines).toEqual([]);
    expect(await client.stop()).toBe(0);
  });

  it('refuses a second prompt while a retry chain is waiting', async () => {
    sim.setScript('503*');
    const client = await startClient({ set: ['retry.baseDelayMs=30000'] });
    const started = nextEvent(client, 'auto_retry_start');
    await client.prompt('first');
    await started;
    await expect(client.prompt('second')).rejects.toThrow(/already running/);
    await client.abort();
    await client.waitForIdle(5000);
    expect(sim.requests).toHaveLength(1);
  });
});

describe('shutdown', () => {
  /** Spawn the CLI directly (no RpcClient) to see exactly what a plain pipe user sees. */
  function spawnCli(baseDelayMs = 20): {
    child: ChildProcessWithoutNullStreams;
    lines: () => RpcOutput[];
    exit: Promise<number | null>;
  } {
    const sets = [`retry.baseDelayMs=${baseDelayMs}`, 'retry.jitterMaxMs=0'].flatMap((s) => ['--set', s]);
    const child = spawn(
      process.execPath,
      [CLI, '--mode', 'rpc', '--base-url', simUrl, '--model', 'resolute-sim-1', '--data-dir', dataDir, ...sets],
      {
        env: { ...process.env, OPENAI_LOG: 'off' },
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    return {
      child,
      lines: () =>
        stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as RpcOutput),
      exit,
    };
  }

  it('stdin end: the piped prompt runs to the end of its retry chain, then the process exits 0', async () => {
    sim.setScript('503,ok');
    const { child, lines, exit } = spawnCli();
    child.stdin.end(`${JSON.stringify({ type: 'prompt', id: 1, message: 'Hello there' })}\n`);
    expect(await exit).toBe(0);
    const out = lines();
    expect(out[0]).toEqual({ id: 1, type: 'response', command: 'prompt', success: true });
    expect(out.filter((o) => o.type === 'auto_retry_end')).toEqual([
      expect.objectContaining({ success: true, attempt: 1 }),
    ]);
    expect(out[out.length - 1].type).toBe('agent_end');
    expect(sim.requests).toHaveLength(2);
  });

  it('SIGTERM during a backoff keeps the chain as interrupted (to continue on the next start) and exits 0', async () => {
    sim.setScript('503*');
    const { child, lines, exit } = spawnCli(30_000);
    child.stdin.write(`${JSON.stringify({ type: 'prompt', message: 'Hello there' })}\n`);
    await vi.waitFor(() => expect(lines().some((o) => o.type === 'auto_retry_start')).toBe(true), { timeout: 10_000 });
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(lines().filter((o) => o.type === 'auto_retry_end')).toEqual([
      expect.objectContaining({ success: false, outcome: 'interrupted' }),
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(sim.requests).toHaveLength(1);
  });
});

describe('extensions', () => {
  /** An extension that appends the retry events it receives to `out`, one JSON line each. */
  const recorder = (out: string) => `
import { appendFileSync } from 'node:fs';
export default function (api) {
  const record = (event) => appendFileSync(${JSON.stringify(out)}, JSON.stringify(event) + '\\n');
  api.on('auto_retry_start', record);
  api.on('auto_retry_end', record);
}
`;
  const readRecords = (path: string) =>
    existsSync(path)
      ? readFileSync(path, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as RpcEvent)
      : [];

  it('an extension in <dataDir>/extensions receives auto_retry_start/auto_retry_end with the same fields as stdout', async () => {
    const out = join(dataDir, 'records.jsonl');
    mkdirSync(join(dataDir, 'extensions'));
    writeFileSync(join(dataDir, 'extensions', 'recorder.mjs'), recorder(out));
    // stdout belongs to the protocol: console.log and stray writes must end up on stderr.
    writeFileSync(
      join(dataDir, 'extensions', 'noisy.mjs'),
      `export function onEvent(e) { if (e.type === 'agent_start') { console.log('noise from console.log'); process.stdout.write('raw noise\\n'); } }\n`,
    );
    sim.setScript('503,ok');
    const client = await startClient();
    const events = await client.promptAndWait('Hello there');
    expect(client.nonJsonLines).toEqual([]);
    expect(client.stderr).toContain('noise from console.log');
    expect(client.stderr).toContain('raw noise');

    const onStdout = events.filter((e) => e.type === 'auto_retry_start' || e.type === 'auto_retry_end');
    expect(onStdout.map((e) => e.type)).toEqual(['auto_retry_start', 'auto_retry_end']);
    expect(readRecords(out)).toEqual(onStdout);
    expect(client.stderr).toContain('extension loaded');
  });

  it('throwing extensions are reported and disabled; the session and a good extension carry on', async () => {
    const ext = join(dataDir, 'extensions');
    mkdirSync(ext);
    writeFileSync(join(ext, 'a-load.mjs'), `throw new Error('boom at load');\n`);
    writeFileSync(
      join(ext, 'b-sync.mjs'),
      `export function onEvent(event) { if (event.type === 'agent_start') throw new Error('boom sync'); }\n`,
    );
    writeFileSync(
      join(ext, 'c-async.mjs'),
      `export default (api) => api.on('agent_end', async () => { throw new Error('boom async'); });\n`,
    );
    writeFileSync(
      join(ext, 'd-timer.mjs'),
      `export default (api) => api.on('agent_start', () => setTimeout(() => { throw new Error('boom timer'); }, 0));\n`,
    );
    writeFileSync(
      join(ext, 'e-setup.mjs'),
      `export default async function () { await Promise.resolve(); throw new Error('boom setup'); }\n`,
    );
    writeFileSync(join(ext, 'f-empty.mjs'), `export const nothing = 1;\n`);
    const goodDir = mkdtempSync(join(tmpdir(), 'resolute-ext-'));
    const out = join(goodDir, 'records.jsonl');
    writeFileSync(join(goodDir, 'good.mjs'), recorder(out));

    const extensionErrors: RpcEvent[] = [];
    sim.setScript('503,ok');
    const client = await startClient({
      args: ['--extension', join(goodDir, 'good.mjs')],
      listen: (event) => {
        if (event.type === 'extension_error') extensionErrors.push(event);
      },
    });
    const events = await client.promptAndWait('Hello there');
    await client.promptAndWait('Again');
    await vi.waitFor(() => expect(extensionErrors).toHaveLength(6));

    const byFile = Object.fromEntries(
      extensionErrors.map((e) =>
        e.type === 'extension_error' ? [e.extensionPath.split('/').pop(), [e.event, e.error]] : [],
      ),
    );
    expect(byFile).toEqual({
      'a-load.mjs': ['load', 'boom at load'],
      'b-sync.mjs': ['agent_start', 'boom sync'],
      'c-async.mjs': ['agent_end', 'boom async'],
      'd-timer.mjs': ['uncaught', 'boom timer'],
      'e-setup.mjs': ['load', 'boom setup'],
      'f-empty.mjs': ['load', expect.stringMatching(/neither a default function nor onEvent/)],
    });
    expect(client.stderr).toMatch(/b-sync\.mjs threw while handling agent_start: boom sync — disabled/);
    expect(retryEnds(events)).toEqual([expect.objectContaining({ success: true, attempt: 1 })]);
    expect(readRecords(out).map((e) => e.type)).toEqual(['auto_retry_start', 'auto_retry_end']);
    expect(await client.getLastAssistantText()).toMatch(/Again/);
    expect(client.nonJsonLines).toEqual([]);
    expect(await client.stop()).toBe(0);
    rmSync(goodDir, { recursive: true, force: true });
  });
});
