// Over real HTTP against the simulator, through the real composition root (settings, SQLite
// history, the guarded pi-ai stream): for each fault the server sees exactly the requests the
// decision table allows — no hidden SDK retries — with tiny delays set like `--set` would; and a
// longer wait, whose retried request the server gets once, never before the wait ends. The silence
// timeout (retry.timeoutMs) stays at its default except for the stall, the one fault that needs it
// to fire: a short one for every case let a loaded machine's slow first bytes of "ok" time out and
// count two requests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import type { AutoRetryStartEvent, SessionEvent } from '../../src/shared/events';
import { RETRY_DEFAULTS } from '../../src/shared/settings-values';

/** The silence timeout for the stall case only; the rest keep the default so slow first bytes never time out. */
const STALL_TIMEOUT_MS = 400;
const DEFAULT_TIMEOUT_MS = RETRY_DEFAULTS.timeoutMs;

let services: AppServices;
let dataDir: string;
const events: SessionEvent[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-http-'));
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    overlay: {
      retry: {
        baseDelayMs: 1,
        jitterMaxMs: 0,
        policy: { timeout: { delayMs: 1 }, invalid_output: { delayMs: 1 } },
      },
    },
    publish: (event) => events.push(event),
  });
});

afterAll(async () => {
  await services.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(script: string): Promise<{ requests: number; ends: SessionEvent[] }> {
  services.domains.session.newSession();
  services.simulator!.setScript(script);
  services.simulator!.clearRequests();
  const from = events.length;
  await services.session.prompt(`script ${script}`);
  const ends = events.slice(from).filter((e) => e.type === 'auto_retry_end');
  return { requests: services.simulator!.requests.length, ends };
}

describe('requests at the server per fault (defaults: maxRetries 3)', () => {
  it.each([
    ['ok', 1, 'none'],
    ['503,503,ok', 3, 'recovered'],
    ['429:0*', 5, 'exhausted'],
    ['500*', 4, 'exhausted'],
    ['502*', 4, 'exhausted'],
    ['503*', 4, 'exhausted'],
    ['504*', 4, 'exhausted'],
    ['overloaded*', 4, 'exhausted'],
    ['usage_limit:0*', 4, 'exhausted'],
    ['reset*', 3, 'exhausted'],
    ['drop*', 3, 'exhausted'],
    ['stall*', 3, 'exhausted'],
    ['malformed*', 3, 'exhausted'],
    ['overflow', 1, 'none'],
    ['auth*', 1, 'none'],
    ['bad_request*', 1, 'none'],
  ])('%s → %i request(s)', async (script, expected, outcome) => {
    // A stall sends headers and then nothing: every attempt ends at the silence timeout, whatever the load.
    const stall = script.startsWith('stall');
    if (stall) services.settings.update({ retry: { timeoutMs: STALL_TIMEOUT_MS } });
    const { requests, ends } = await run(script).finally(() => {
      if (stall) services.settings.update({ retry: { timeoutMs: DEFAULT_TIMEOUT_MS } });
    });
    expect(requests).toBe(expected);
    if (outcome === 'none') expect(ends).toEqual([]);
    else expect(ends).toEqual([expect.objectContaining({ outcome, success: outcome === 'recovered' })]);
  });

  it('a Retry-After above maxDelayMs fails at once, naming the wait; the next prompt is paced', async () => {
    const { requests, ends } = await run('429:120');
    expect(requests).toBe(1);
    expect(ends[0]).toMatchObject({ success: false, attempt: 0 });
    expect((ends[0] as { finalError: string }).finalError).toMatch(/120 s/);
    // The provider said when it would take requests again: the next prompt waits for it (or "Send anyway").
    const from = events.length;
    const prompt = services.session.prompt('after the 429');
    await expect.poll(() => events.slice(from).find((e) => e.type === 'rate_limit_wait')).toBeTruthy();
    expect(services.session.sendAnyway()).toBe(true);
    await prompt;
    expect(services.simulator!.requests).toHaveLength(2);
  });

  it('keeps every errored turn in SQLite and every decision in the JSON-lines log', async () => {
    const before = services.history.listSessions().length;
    await run('503,503,ok');
    const sessions = services.history.listSessions();
    expect(sessions.length).toBe(before + 1);
    const detail = services.history.getSession(services.session.sessionId)!;
    expect(detail.turns.map((t) => [t.role, t.stopReason, t.errorCategory])).toEqual([
      ['user', null, null],
      ['assistant', 'error', 'server_error'],
      ['assistant', 'error', 'server_error'],
      ['assistant', 'stop', null],
    ]);
    expect(detail.chains.map((c) => c.outcome)).toEqual(['recovered']);
    expect(detail.decisions.map((d) => [d.action, d.finalDecision])).toEqual([
      ['retry', null],
      ['retry', null],
      ['retry', 'success'],
    ]);
    const lines = readFileSync(join(services.logDir, 'retry-decisions.jsonl'), 'utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ finalDecision: 'success', level: 'INFO', category: 'server_error' });
    for (const key of [
      'timestamp',
      'errorType',
      'category',
      'attempt',
      'action',
      'waitSeconds',
      'context',
      'finalDecision',
    ])
      expect(last).toHaveProperty(key);
    expect(services.history.loadContext(services.session.sessionId).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('a retried request after a longer wait', () => {
  it('reaches the server once the wait ends, once, after the errored turn was stored', async () => {
    services.settings.update({ retry: { baseDelayMs: 300 } });
    try {
      const from = events.length;
      const { requests, ends } = await run('503,ok');
      expect(requests).toBe(2);
      expect(ends).toEqual([expect.objectContaining({ outcome: 'recovered' })]);
      const seen = events.slice(from).map((e) => e.type);
      const start = events.slice(from).find((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start')!;
      // Never before the deadline, to the millisecond both clocks (the wait's and the server's) keep.
      expect(services.simulator!.requests[1].at).toBeGreaterThanOrEqual(start.retryAt - 1);
      const stored = seen.slice(0, seen.indexOf('auto_retry_start')).filter((type) => type === 'turn_persisted');
      expect(stored).toHaveLength(2); // the prompt and the errored answer
      expect(seen.slice(seen.indexOf('auto_retry_start')).filter((type) => type === 'agent_start')).toHaveLength(1);
    } finally {
      services.settings.update({ retry: { baseDelayMs: 1 } });
    }
  });
});
