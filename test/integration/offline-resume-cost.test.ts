// Offline-aware backoff, resume after a restart and what failures cost, over real HTTP
// (docs/retry-policy.md): the simulator's offline switch plays a network outage that the app's
// real reachability check (a HEAD to the provider's host) sees; a CLI process is SIGKILLed in the
// middle of a backoff and the next start continues its chain; failed attempts through the real
// Anthropic SDK are priced with pi-ai's registry.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getModel } from '@mariozechner/pi-ai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rebuildIfStale } from '../../scripts/ensure-build.js';
import { INTERRUPTED_FINAL_ERROR } from '../../src/main/core/retry/retry-chain';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import { anthropicThroughSimulator, retryEnds, retryStarts, startServices, type Started } from './fixtures/services';

const CLI = process.env.RESOLUTE_CLI ?? resolve('out/main/cli.js');
let app: Started | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('offline-aware backoff', () => {
  it('a connection failure while offline pauses without counting; the retry goes at once when back', async () => {
    app = await startServices();
    app.sim.setOffline(true);
    const turn = app.services.session.prompt('while offline');
    const paused = await app.next('auto_retry_paused');
    expect(paused).toMatchObject({ reason: 'offline', attempt: 1, maxAttempts: 2, category: 'connection' });
    await expect.poll(() => app!.sim.refusedReachabilityChecks, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(app.sim.requests).toHaveLength(0);
    expect(app.sim.droppedRequests).toBe(1);
    expect(retryStarts(app)).toHaveLength(0);
    expect(app.services.domains.session.snapshot()).toMatchObject({
      isRetrying: true,
      pendingRetry: { offline: true, attempt: 1 },
    });

    app.sim.setOffline(false);
    await turn;
    expect(retryStarts(app)).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0 })]);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ success: true, outcome: 'recovered' })]);
    expect(app.sim.requests.map((r) => r.step)).toEqual(['ok']);
    const decisions = app.services.history.getSession(app.services.session.sessionId)!.decisions;
    expect(decisions.map((d) => d.reason)[0]).toMatch(/offline, waiting for the network; retry 1 of 2 kept/);
  });

  it('Cancel while paused ends the chain and nothing is sent when the network returns', async () => {
    app = await startServices();
    app.sim.setOffline(true);
    const turn = app.services.session.prompt('cancel me offline');
    await app.next('auto_retry_paused');
    expect(app.services.session.abortRetry()).toBe(true);
    await turn;
    app.sim.setOffline(false);
    await pause(200);
    expect(retryEnds(app)).toEqual([expect.objectContaining({ outcome: 'cancelled', finalError: 'Retry cancelled' })]);
    expect(app.sim.requests).toHaveLength(0);
  });

  it('a dropped connection while the host is reachable counts as before (3 attempts)', async () => {
    app = await startServices();
    app.sim.setScript('drop*');
    await app.services.session.prompt('drops online');
    expect(app.sim.requests).toHaveLength(3);
    expect(app.events.some((e) => e.type === 'auto_retry_paused')).toBe(false);
  });
});

describe('resume after a restart', () => {
  beforeAll(() => {
    if (!process.env.RESOLUTE_CLI) rebuildIfStale({ quiet: true });
  }, 120_000);

  it('after a SIGKILL during the backoff, the next start offers the turn and Retry now finishes the same chain', async () => {
    const sim = new SimulatorServer({ script: '503*', chunkDelayMs: 1 });
    const simUrl = await sim.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'resolute-i16-kill-'));
    try {
      const child = spawn(
        process.execPath,
        [
          CLI,
          '--mode',
          'rpc',
          '--base-url',
          simUrl,
          '--model',
          'resolute-sim-1',
          '--data-dir',
          dataDir,
          '--set',
          'retry.baseDelayMs=60000',
        ],
        { env: { ...process.env, OPENAI_LOG: 'off' } },
      );
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
      const exited = new Promise((done) => child.once('exit', done));
      child.stdin.write(`${JSON.stringify({ type: 'prompt', message: 'survive a crash' })}\n`);
      await expect.poll(() => out.includes('"auto_retry_start"'), { timeout: 15_000 }).toBe(true);
      child.kill('SIGKILL');
      await exited;
      expect(sim.requests).toHaveLength(1);

      sim.setScript('ok');
      app = await startServices(
        { provider: { id: 'openai-compatible', model: 'resolute-sim-1', baseUrl: simUrl } },
        { host: 'browser', dataDir },
      );
      const offer = app.services.domains.session.snapshot().interruptedRetry;
      expect(offer).toMatchObject({ attempt: 1, maxAttempts: 3, category: 'server_error' });
      expect(offer!.errorMessage).toMatch(/503/);
      expect(app.services.domains.session.snapshot().turns.map((t) => t.role)).toEqual(['user', 'assistant']);
      // One start-up flow: the chain the start closed is in its notice too, with the quit's final error.
      expect(app.services.domains.app.info().notices).toContainEqual(
        expect.objectContaining({ message: expect.stringMatching(/1 retry chain .*interrupted/) }),
      );
      expect(app.services.domains.session.snapshot().chains).toEqual([
        expect.objectContaining({ id: offer!.chainId, outcome: 'interrupted', finalError: INTERRUPTED_FINAL_ERROR }),
      ]);

      expect(app.services.domains.session.resumeInterrupted(offer!.chainId)).toBe(true);
      const end = await app.next('auto_retry_end');
      expect(end).toMatchObject({ success: true, outcome: 'recovered', chainId: offer!.chainId });
      expect(retryStarts(app)).toEqual([expect.objectContaining({ attempt: 1, delayMs: 0, resumed: true })]);
      expect(sim.requests).toHaveLength(2);
      const detail = app.services.history.getSession(app.services.session.sessionId)!;
      expect(detail.chains).toEqual([expect.objectContaining({ id: offer!.chainId, outcome: 'recovered' })]);
      expect(detail.decisions.map((d) => [d.attempt, d.reason.replace(/ in .*/, '')])).toEqual([
        [1, 'server_error: retry 1 of 3'],
        [1, 'resumed after a restart: retry 1 of 3 now'],
        [2, 'recovered after 1 retry'],
      ]);
      expect(app.services.domains.session.snapshot().interruptedRetry).toBeNull();
    } finally {
      await app?.stop({ keepData: true });
      app = undefined;
      await sim.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a quit during the backoff keeps the chain as interrupted; Discard gives it up for good', async () => {
    const first = await startServices({ retry: { baseDelayMs: 60_000 } });
    first.sim.setScript('503*');
    void first.services.session.prompt('quit while waiting');
    await first.next('auto_retry_start');
    await first.stop({ keepData: true });
    expect(retryEnds(first)).toEqual([expect.objectContaining({ outcome: 'interrupted' })]);

    app = await startServices({}, { host: 'browser', dataDir: first.dataDir });
    const offer = app.services.domains.session.snapshot().interruptedRetry!;
    expect(offer).toMatchObject({ attempt: 1, category: 'server_error' });
    expect(app.services.domains.session.discardInterrupted(offer.chainId)).toBe(true);
    expect(app.services.domains.session.snapshot().interruptedRetry).toBeNull();
    expect(app.services.domains.session.resumeInterrupted(offer.chainId)).toBe(false);
    const detail = app.services.history.getSession(app.services.session.sessionId)!;
    expect(detail.chains[0]).toMatchObject({ outcome: 'interrupted' });
    expect(detail.decisions.at(-1)).toMatchObject({
      finalDecision: 'abort',
      reason: 'interrupted chain discarded by the person',
    });
    expect(app.sim.requests).toHaveLength(0);
  });
});

describe('what failures cost', () => {
  it('each failed attempt through the Anthropic SDK is priced from the registry; the history totals them', async () => {
    app = await startServices({ retry: { maxRetries: 2 } });
    await anthropicThroughSimulator(app.services);
    app.sim.setScript('stream_error*');
    await app.services.session.prompt('this will fail three times');
    const price = getModel('anthropic', 'claude-sonnet-4-5').cost;
    const failed = app.services.history
      .getSession(app.services.session.sessionId)!
      .turns.filter((t) => t.stopReason === 'error');
    expect(failed).toHaveLength(3);
    for (const turn of failed) {
      expect(turn.usage!.input).toBeGreaterThan(0);
      expect(turn.costUsd).toBeCloseTo((turn.usage!.input * price.input + turn.usage!.output * price.output) / 1e6, 12);
    }
    const report = app.services.domains.history.failureCost(null);
    const input = failed.reduce((n, t) => n + t.usage!.input, 0);
    expect(report.total).toMatchObject({ attempts: 3, inputTokens: input, unpricedAttempts: 0 });
    expect(report.total.costUsd).toBeCloseTo(
      failed.reduce((n, t) => n + t.costUsd!, 0),
      12,
    );
    expect(report.categories).toEqual([expect.objectContaining({ category: 'overloaded', attempts: 3 })]);
    expect(report.sessions).toEqual([
      expect.objectContaining({ sessionId: app.services.session.sessionId, attempts: 3 }),
    ]);
    expect(app.services.domains.history.failureCost(Date.now() + 60_000).total.attempts).toBe(0);
  });

  it("the simulator's price is unknown: its failures count tokens but no cost", async () => {
    app = await startServices({ retry: { maxRetries: 1 } });
    app.sim.setScript('503*');
    await app.services.session.prompt('unpriced');
    const report = app.services.domains.history.failureCost(null);
    expect(report.total).toMatchObject({ attempts: 2, costUsd: 0, unpricedAttempts: 2 });
  });
});
