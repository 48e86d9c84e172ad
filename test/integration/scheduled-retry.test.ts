// Scheduled retries over real HTTP (docs/retry-policy.md, "Scheduled retries"): the simulator asks
// for a two-hour wait (`429:7200`), above the 60 s maximum delay. In process, on the real
// AppServices with an injected clock moved by hand: the chain waits for its time and retries once,
// not before it (within a second of it is sleepUntil's, on fake timers); Cancel ends it; with the setting off, "Retry at …" schedules the chain that
// stopped. Spawned, the real CLI in RPC mode with a data folder: `abort_retry` cancels, and a
// SIGKILL or a SIGTERM restart takes the schedule up again — at once when its time has passed
// (RESOLUTE_CLOCK_OFFSET_MS moves the new process's clock), else as a wait for its stored time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../fixtures/rpc-client';
import type { RpcEvent } from '../../src/main/modes/rpc/rpc-types';
import type { AutoRetryEndEvent, AutoRetryStartEvent } from '../../src/shared/events';
import { CLI, simulatorArgs, simulatorForCli } from './fixtures/built-cli';
import { retryEnds, retryStarts, startServices, type Started } from './fixtures/services';

const TWO_HOURS = 7_200_000;
const HOUR = 3_600_000;
/**
 * Ceilings for the spawned CLI, not durations (a passing wait ends at its event): at a load of 10 on
 * two cores one process's start took seconds, and a test here starts up to three.
 */
const RPC_WAIT_MS = 60_000;
const RPC_TEST_MS = 180_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A clock that runs with the system's, moved ahead by hand (the machine slept, hours passed). */
function movableClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, moveTo: (at: number) => (offset = at - Date.now()) };
}

describe('a scheduled retry in the app', () => {
  let app: Started | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('waits for the time the provider named, then retries once, not before it', async () => {
    const clock = movableClock();
    app = await startServices({ retry: { scheduleLongWaits: true } }, { clock });
    app.sim.setScript('429:7200,ok');
    const turn = app.services.session.prompt('wait for me');
    const start = await app.next('auto_retry_start');
    expect(start).toMatchObject({ attempt: 1, delayMs: TWO_HOURS, scheduled: true, category: 'rate_limit' });
    expect(app.services.domains.session.snapshot()).toMatchObject({
      isRetrying: true,
      pendingRetry: { scheduled: true },
    });

    clock.moveTo(start.retryAt - 3000); // three seconds short: nothing goes yet
    await pause(1500);
    expect(app.sim.requests).toHaveLength(1);
    clock.moveTo(start.retryAt);
    const movedAt = Date.now();
    await turn;
    // Not before the time: a sleep that missed the clock's move would never end (the test's timeout).
    expect(app.sim.requests[1].at).toBeGreaterThanOrEqual(movedAt);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true, outcome: 'recovered' })]);
    expect(retryStarts(app)).toHaveLength(1); // one attempt for the whole wait
    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.decisions[0]).toMatchObject({ action: 'retry', scheduled: true, retryAt: start.retryAt });
    expect(detail.chains).toEqual([expect.objectContaining({ outcome: 'recovered', attempts: 1 })]);
  });

  it('Cancel ends the chain and nothing is sent at its time', async () => {
    const clock = movableClock();
    app = await startServices({ retry: { scheduleLongWaits: true } }, { clock });
    app.sim.setScript('429:7200,ok');
    const turn = app.services.session.prompt('then cancel');
    const start = await app.next('auto_retry_start');
    expect(app.services.session.abortRetry()).toBe(true);
    await turn;
    clock.moveTo(start.retryAt + 1000);
    await pause(1200);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    expect(app.sim.requests).toHaveLength(1);
    expect(app.services.history.scheduledChains()).toEqual([]);
  });

  it('with the setting off the chain stops at once; "Retry at …" schedules that chain', async () => {
    const clock = movableClock();
    app = await startServices({}, { clock });
    app.sim.setScript('429:7200,ok');
    await app.services.session.prompt('too long a wait');
    const end = retryEnds(app)[0];
    expect(end).toMatchObject({ success: false, outcome: 'exhausted' });
    const stopped = app.services.history.getSession(app.services.session.sessionId)!;
    const final = stopped.decisions.at(-1)!;
    expect(final).toMatchObject({ finalDecision: 'abort', hintMs: TWO_HOURS, retryAt: expect.any(Number) });

    expect(app.services.domains.session.scheduleRetry('no-such-chain')).toBe(false);
    expect(app.services.domains.session.scheduleRetry(end.chainId)).toBe(true);
    const start = await app.next('auto_retry_start');
    expect(start).toMatchObject({ chainId: end.chainId, attempt: 1, scheduled: true, retryAt: final.retryAt });
    expect(start.delayMs).toBeGreaterThan(TWO_HOURS - 10_000);
    expect(app.services.domains.session.snapshot().isRetrying).toBe(true);
    clock.moveTo(final.retryAt!);
    await app.services.session.waitForPendingWork();
    expect(retryEnds(app).at(-1)).toMatchObject({ success: true, outcome: 'recovered', chainId: end.chainId });
    expect(app.sim.requests).toHaveLength(2);
    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.decisions.map((d) => d.reason.replace(/ at .*/, ''))).toEqual([
      'provider asked to wait 7200 s, above the 60 s maximum delay',
      'scheduled by the person: retry 1 of 4',
      'recovered after 1 retry',
    ]);
  });

  it('after a quit, a window host opens the scheduled session and keeps waiting with its banner', async () => {
    const first = await startServices({ retry: { scheduleLongWaits: true } });
    first.sim.setScript('429:7200,ok');
    void first.services.session.prompt('keep my schedule');
    const scheduled = await first.next('auto_retry_start');
    const sessionId = first.services.session.sessionId;
    await first.stop({ keepData: true });
    expect(retryEnds(first)).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);

    const clock = movableClock();
    app = await startServices({}, { host: 'browser', dataDir: first.dataDir, clock });
    const snapshot = app.services.domains.session.snapshot();
    expect(snapshot).toMatchObject({ sessionId, isRetrying: true, interruptedRetry: null });
    expect(snapshot.pendingRetry).toMatchObject({ scheduled: true, resumed: true, retryAt: scheduled.retryAt });
    // Taken up again: the chain is pending once more, no longer a schedule left by a stop.
    expect(app.services.history.scheduledChains()).toEqual([]);
    app.sim.setScript('ok');
    clock.moveTo(scheduled.retryAt);
    await app.next('auto_retry_end');
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true, chainId: scheduled.chainId })]);
  });

  it('a wait above 24 h is not scheduled', async () => {
    app = await startServices({ retry: { scheduleLongWaits: true } });
    app.sim.setScript('429:90000,ok');
    await app.services.session.prompt('a day and more');
    expect(retryStarts(app)).toHaveLength(0);
    const final = app.services.history.getSession(app.services.session.sessionId)!.decisions.at(-1)!;
    expect(final.reason).toMatch(/waits above 24 h are not scheduled/);
    expect(final.retryAt).toBeUndefined();
    expect(app.services.domains.session.scheduleRetry(retryEnds(app)[0].chainId)).toBe(false);
  });
});

describe('a scheduled retry in the RPC mode, across restarts', { timeout: RPC_TEST_MS }, () => {
  const { sim, url: simUrl } = simulatorForCli();
  let dataDir = '';
  const clients: RpcClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startRpc(options: { set?: string[]; env?: Record<string, string> } = {}) {
    const events: RpcEvent[] = [];
    const sets = (options.set ?? []).flatMap((v) => ['--set', v]);
    const client = new RpcClient({
      cliPath: CLI,
      args: [...simulatorArgs(simUrl(), dataDir), ...sets],
      env: { OPENAI_LOG: 'off', ...options.env },
    });
    clients.push(client);
    client.onEvent((e) => events.push(e));
    await client.start();
    const starts = () => events.filter((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
    const ends = () => events.filter((e): e is AutoRetryEndEvent => e.type === 'auto_retry_end');
    return { client, events, starts, ends };
  }

  /** A first process that schedules a two-hour retry; returns it and the scheduled time. */
  async function scheduleInFirstProcess() {
    dataDir = mkdtempSync(join(tmpdir(), 'resolute-sched-'));
    sim.setScript('429:7200,ok');
    sim.clearRequests();
    const first = await startRpc({ set: ['retry.scheduleLongWaits=true'] });
    await first.client.prompt('schedule me');
    await expect.poll(() => first.starts().length, { timeout: RPC_WAIT_MS }).toBe(1);
    const start = first.starts()[0];
    expect(start).toMatchObject({ delayMs: TWO_HOURS, scheduled: true });
    return { first, retryAt: start.retryAt };
  }

  /** Stop the first process with `signal`, and wait until it is gone. */
  async function stopWith(first: Awaited<ReturnType<typeof startRpc>>, signal: NodeJS.Signals) {
    process.kill(first.client.pid!, signal);
    await first.client.stop();
  }

  it('auto_retry_start carries the wait, get_state says retrying, abort_retry cancels', async () => {
    const { first } = await scheduleInFirstProcess();
    expect(await first.client.getState()).toMatchObject({ isRetrying: true });
    await first.client.abortRetry();
    await expect.poll(() => first.ends().length, { timeout: RPC_WAIT_MS }).toBe(1);
    expect(first.ends()[0]).toMatchObject({ success: false, outcome: 'cancelled' });
    expect(await first.client.getState()).toMatchObject({ isRetrying: false });
    await pause(300);
    expect(sim.requests).toHaveLength(1);
  });

  it('after a SIGKILL, a start past the scheduled time retries at once', async () => {
    const { first, retryAt } = await scheduleInFirstProcess();
    await stopWith(first, 'SIGKILL');
    // The next start is three hours later by its clock.
    const offset = String(retryAt + 3_600_000 - Date.now());
    const next = await startRpc({ env: { RESOLUTE_CLOCK_OFFSET_MS: offset } });
    await expect.poll(() => next.ends().length, { timeout: RPC_WAIT_MS }).toBe(1);
    expect(next.starts()).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0, resumed: true })]);
    expect(next.ends()[0]).toMatchObject({ success: true, outcome: 'recovered', chainId: next.starts()[0].chainId });
    expect(sim.requests).toHaveLength(2);
    // The crash left the chain pending; the start takes it up, so no notice calls it cut off.
    const notices = next.events.filter((e) => e.type === 'notice').map((e) => ('message' in e ? e.message : ''));
    expect(notices.filter((m) => /cut off/.test(m))).toEqual([]);
    const messages = await next.client.getMessages();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('after a SIGTERM, a start before the scheduled time keeps waiting for it; a start past it retries at once', async () => {
    const { first, retryAt } = await scheduleInFirstProcess();
    await stopWith(first, 'SIGTERM');
    expect(first.ends()).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    // By the new process's clock the schedule is an hour away, however long the start takes on a
    // busy machine (a few seconds ahead raced it); the wait that ends at the clock's time is the
    // in-process tests' (an injected clock, moved by hand) and sleepUntil's (fake timers).
    const waiting = await startRpc({ env: { RESOLUTE_CLOCK_OFFSET_MS: String(retryAt - HOUR - Date.now()) } });
    await expect.poll(() => waiting.starts().length, { timeout: RPC_WAIT_MS }).toBe(1);
    expect(waiting.starts()[0]).toMatchObject({ attempt: 1, scheduled: true, resumed: true, retryAt });
    // What is left until the stored time by its clock: at most the hour, less the start's own time.
    expect(waiting.starts()[0].delayMs).toBeLessThanOrEqual(HOUR);
    expect(waiting.starts()[0].delayMs).toBeGreaterThan(HOUR / 2);
    expect(await waiting.client.getState()).toMatchObject({ isRetrying: true });
    expect(sim.requests).toHaveLength(1);

    await stopWith(waiting, 'SIGTERM');
    expect(waiting.ends()).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);
    // Stopped again while waiting, the schedule is kept: a start a minute past it retries once, at once.
    const next = await startRpc({ env: { RESOLUTE_CLOCK_OFFSET_MS: String(retryAt + 60_000 - Date.now()) } });
    await expect.poll(() => next.ends().length, { timeout: RPC_WAIT_MS }).toBe(1);
    expect(next.starts()).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0, resumed: true })]);
    expect(next.ends()[0]).toMatchObject({ success: true, outcome: 'recovered', chainId: next.starts()[0].chainId });
    expect(sim.requests).toHaveLength(2);
  });
});
