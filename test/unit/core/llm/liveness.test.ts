// LivenessWatch (src/main/core/llm/liveness.ts) on fake timers: what ends a request and with which
// words — silence, keep-alives without words past their own limit, a local server's first-token
// wait and its probe — and what does not (docs/retry-policy.md, "Liveness", "Two clocks").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LivenessWatch,
  type LivenessFailure,
  type LocalServerLiveness,
  type ProbeAnswer,
  type PromptWaitUpdate,
} from '../../../../src/main/core/llm/liveness';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const MINUTE = 60_000;

function watch(local?: Partial<LocalServerLiveness> & { answers?: ProbeAnswer[] }) {
  const failures: LivenessFailure[] = [];
  const updates: PromptWaitUpdate[] = [];
  const answers = local?.answers ?? [];
  const server: LocalServerLiveness | undefined = local && {
    baseUrl: 'http://127.0.0.1:8080/v1',
    firstTokenWaitMs: 10 * MINUTE,
    probeEveryMs: 3000,
    probe: () => Promise.resolve(answers.shift() ?? 'alive'),
    ...local,
  };
  const w = new LivenessWatch(
    { idleMs: 30_000, keepAliveLimitMs: 10 * MINUTE, local: server },
    (f) => failures.push(f),
    (u) => updates.push(u),
  );
  return { w, failures, updates };
}

describe('a cloud provider', () => {
  it('silence for retry.timeoutMs ends it: "no bytes for 30 s"', () => {
    const { failures } = watch();
    vi.advanceTimersByTime(30_000);
    expect(failures).toEqual([{ kind: 'timeout', message: 'Request timed out: no bytes for 30 s' }]);
  });

  it('keep-alives re-arm the timer, up to their own limit: "connected, but no words for 600 s"', () => {
    const { w, failures } = watch();
    for (let s = 20; s < 10 * 60; s += 20) {
      vi.advanceTimersByTime(20_000);
      w.bytes();
    }
    expect(failures).toEqual([]);
    vi.advanceTimersByTime(20_000);
    expect(failures).toEqual([{ kind: 'timeout', message: 'Request timed out: connected, but no words for 600 s' }]);
  });

  it('once words flowed only silence counts: the keep-alive limit no longer applies', () => {
    const { w, failures } = watch();
    w.words();
    for (let s = 0; s < 20 * 60; s += 20) {
      vi.advanceTimersByTime(20_000);
      w.bytes();
    }
    expect(failures).toEqual([]);
    vi.advanceTimersByTime(30_000);
    expect(failures).toEqual([{ kind: 'timeout', message: 'Request timed out: no bytes for 30 s' }]);
  });
});

describe('a local server', () => {
  it('waits past the idle limit while the probe answers, shows the wait, then times silence after words', async () => {
    const local = watch({});
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(local.failures).toEqual([]);
    expect(local.updates[0]).toEqual({ state: 'start', startedAt: expect.any(Number) });
    local.w.progress(512, 2048);
    local.w.words();
    expect(local.updates.slice(1)).toEqual([{ state: 'progress', processed: 512, total: 2048 }, { state: 'end' }]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(local.failures).toEqual([{ kind: 'timeout', message: 'Request timed out: no bytes for 30 s' }]);
  });

  it('its first-token wait ends it when no word came', async () => {
    const { w, failures } = watch({ firstTokenWaitMs: 12 * MINUTE });
    w.bytes();
    await vi.advanceTimersByTimeAsync(12 * MINUTE);
    expect(failures).toEqual([{ kind: 'timeout', message: 'Request timed out: connected, but no words for 720 s' }]);
  });

  it('a refused probe is a connection failure at once; three silent ones in a row too', async () => {
    const refused = watch({ answers: ['alive', 'refused'] });
    await vi.advanceTimersByTimeAsync(6000);
    expect(refused.failures).toEqual([
      {
        kind: 'connection',
        message: expect.stringMatching(/^Connection error: the local server at .* refused the connection/),
      },
    ]);
    expect(refused.updates.at(-1)).toEqual({ state: 'end' });
    const silent = watch({ answers: ['silent', 'silent', 'alive', 'silent', 'silent', 'silent'] });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(silent.failures).toEqual([]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(silent.failures).toEqual([
      { kind: 'connection', message: expect.stringMatching(/stopped answering while the prompt was processed/) },
    ]);
  });
});
