// A tools/call is never replayed across a restart or a scheduled retry (docs/mcp.md, "Failures"),
// counted by the tests' own server (fixtures/mcp-counting-server.mjs): a turn whose model calls the
// MCP tool stores the result, then the app goes — a quit (a new AppServices on the same data
// folder), or the built CLI killed by SIGTERM or SIGKILL — and the next one continues, resumes the
// interrupted chain or runs the scheduled retry; the server must have been called exactly once, and
// the request after it must carry the stored result.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, simulatorArgs, simulatorForCli } from './fixtures/built-cli';
import { FIXTURES, serverStatus } from './fixtures/mcp-servers';
import { retryEnds, startServices, type Started } from './fixtures/services';

let root: string;
let countFile: string;
const apps: Started[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-restart-'));
  countFile = join(root, 'calls.txt');
});
afterEach(async () => {
  for (const app of apps.splice(0).reverse()) await app.stop({ keepData: true });
  rmSync(root, { recursive: true, force: true });
});

const calls = () => (existsSync(countFile) ? readFileSync(countFile, 'utf8').trim().split('\n') : []);
const counter = () => ({
  command: process.execPath,
  args: [join(FIXTURES, 'mcp-counting-server.mjs')],
  env: { COUNT_FILE: countFile },
});
const withCounter = (more: Record<string, unknown> = {}) => ({
  tools: { approval: 'auto' },
  mcp: { servers: { counter: counter() } },
  ...more,
});

/** A clock that runs with the system's, moved ahead by hand. */
function movableClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, moveTo: (at: number) => (offset = at - Date.now()) };
}

async function open(overlay: Record<string, unknown>, options: Parameters<typeof startServices>[1] = {}) {
  const app = await startServices(overlay, { workspace: join(root, 'ws'), dataDir: join(root, 'data'), ...options });
  apps.push(app);
  await serverStatus(app.services, 'counter');
  return app;
}

describe('across a quit and a new start on the same data folder', () => {
  it('Continue after the turn failed sends the stored result; the tool is not called again', async () => {
    const first = await open(withCounter());
    first.sim.setScript('tool:mcp__counter__count:{}, bad_request');
    await first.services.session.prompt('count once');
    expect(first.sim.requests.map((r) => r.step)).toEqual(['tool:mcp__counter__count:{}', 'bad_request']);
    expect(calls()).toEqual(['count']);
    const sessionId = first.services.session.sessionId;
    await apps.pop()!.stop({ keepData: true });

    const next = await open(withCounter());
    next.services.domains.session.resumeSession(sessionId);
    next.sim.setScript('ok');
    await next.services.domains.session.continueTurn();
    expect(next.sim.requests.map((r) => r.step)).toEqual(['ok']);
    expect(next.sim.requests[0].lastToolResult).toBe('counted');
    expect(calls()).toEqual(['count']);
  }, 30_000);

  it('a retry chain the quit interrupted is resumed: one request, no second call', async () => {
    const first = await open(withCounter({ retry: { baseDelayMs: 60_000 } }));
    first.sim.setScript('tool:mcp__counter__count:{}, 503*');
    void first.services.session.prompt('count, then wait');
    await first.next('auto_retry_start');
    expect(calls()).toEqual(['count']);
    await apps.pop()!.stop({ keepData: true });
    expect(retryEnds(first)).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);

    const next = await open(withCounter(), { host: 'browser' });
    const offer = next.services.domains.session.snapshot().interruptedRetry!;
    expect(offer).toMatchObject({ category: 'server_error' });
    next.sim.setScript('ok');
    expect(next.services.domains.session.resumeInterrupted(offer.chainId)).toBe(true);
    expect(await next.next('auto_retry_end')).toMatchObject({ success: true, chainId: offer.chainId });
    expect(next.sim.requests.map((r) => [r.step, r.lastToolResult])).toEqual([['ok', 'counted']]);
    expect(calls()).toEqual(['count']);
  }, 30_000);
});

describe('across a scheduled retry', () => {
  it('the chain waits for the provider’s time after the stored result; the retry does not call the tool', async () => {
    const clock = movableClock();
    const app = await open(withCounter({ retry: { scheduleLongWaits: true } }), { clock });
    app.sim.setScript('tool:mcp__counter__count:{}, 429:7200, ok');
    const turn = app.services.session.prompt('count, then wait two hours');
    const start = await app.next('auto_retry_start');
    expect(start).toMatchObject({ scheduled: true });
    clock.moveTo(start.retryAt);
    await turn;
    expect(app.sim.requests.map((r) => r.step)).toEqual(['tool:mcp__counter__count:{}', '429:7200', 'ok']);
    expect(app.sim.requests[2].lastToolResult).toBe('counted');
    expect(calls()).toEqual(['count']);
  }, 30_000);

  it('"Retry at …" on the chain that stopped runs at its time without calling the tool again', async () => {
    const clock = movableClock();
    const app = await open(withCounter(), { clock });
    app.sim.setScript('tool:mcp__counter__count:{}, 429:7200, ok');
    await app.services.session.prompt('count, then stop');
    const end = retryEnds(app)[0];
    expect(end).toMatchObject({ success: false, outcome: 'exhausted' });
    expect(app.services.domains.session.scheduleRetry(end.chainId)).toBe(true);
    const start = await app.next('auto_retry_start');
    clock.moveTo(start.retryAt);
    await app.services.session.waitForPendingWork();
    expect(retryEnds(app).at(-1)).toMatchObject({ success: true, chainId: end.chainId });
    expect(app.sim.requests.at(-1)).toMatchObject({ step: 'ok', lastToolResult: 'counted' });
    expect(calls()).toEqual(['count']);
  }, 30_000);
});

describe('across a killed process (the built CLI in RPC mode)', () => {
  const { sim, url: simUrl } = simulatorForCli();

  /** The CLI runs the turn: the tool is called and its result stored, then the model request waits to be retried. */
  async function firstProcessKilledBy(signal: NodeJS.Signals): Promise<void> {
    sim.clearRequests();
    sim.setScript('tool:mcp__counter__count:{}, 503*');
    const args = ['--mode', 'rpc', ...simulatorArgs(simUrl(), join(root, 'data'))];
    const sets = [
      'retry.baseDelayMs=60000',
      'tools.approval=auto',
      `mcp.servers=${JSON.stringify({ counter: counter() })}`,
    ];
    const child = spawn(
      process.execPath,
      [CLI, ...args, '--workspace', join(root, 'ws'), ...sets.flatMap((s) => ['--set', s])],
      {
        env: { ...process.env, OPENAI_LOG: 'off' },
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const exited = new Promise((done) => child.once('exit', done));
    // A prompt does not wait for servers still starting: until the counter is up, its tool would be
    // missing from the request. This test is about the call.
    await expect.poll(() => /"name":"counter","state":"connected"/.test(out), { timeout: 30_000 }).toBe(true);
    child.stdin.write(`${JSON.stringify({ type: 'prompt', message: 'count, then be killed' })}\n`);
    await expect.poll(() => out.includes('"auto_retry_start"'), { timeout: 20_000 }).toBe(true);
    expect(calls()).toEqual(['count']);
    child.kill(signal);
    await exited;
    expect(sim.requests.map((r) => r.step)).toEqual(['tool:mcp__counter__count:{}', '503']);
  }

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`after a ${signal}, the next start resumes the chain with the stored result; one call in all`, async () => {
      await firstProcessKilledBy(signal);
      sim.setScript('ok');
      const provider = { id: 'openai-compatible', model: 'resolute-sim-1', baseUrl: simUrl() };
      const next = await open(withCounter({ provider }), { host: 'browser' });
      const offer = next.services.domains.session.snapshot().interruptedRetry!;
      expect(offer).toMatchObject({ category: 'server_error' });
      expect(next.services.domains.session.resumeInterrupted(offer.chainId)).toBe(true);
      expect(await next.next('auto_retry_end')).toMatchObject({ success: true, chainId: offer.chainId });
      expect(sim.requests.map((r) => [r.step, r.lastToolResult])).toEqual([
        ['tool:mcp__counter__count:{}', null],
        ['503', 'counted'],
        ['ok', 'counted'],
      ]);
      expect(calls()).toEqual(['count']);
    }, 60_000);
  }
});
