// The retry wait keeps time (docs/retry-policy.md, "The retry lifecycle"): it runs from the moment
// the error arrived, however long storing the turn and the decision takes, and each event's history
// writes are one transaction. A session on a scripted stream, a clock the history moves forward
// (a slow disk, without real waiting), and a history that counts its transactions.
import { describe, expect, it } from 'vitest';
import type { AutoRetryStartEvent } from '../../../../src/shared/events';
import type { NewTurn } from '../../../../src/main/core/ports';
import { harness, MemoryHistory } from '../session-fakes';

/** A clock that moves only when told to. */
class StepClock {
  value = 1_000_000;
  now(): number {
    return this.value;
  }
}

/** Every stored turn and every transaction costs `costMs` on the clock, as a slow fsync would. */
class SlowHistory extends MemoryHistory {
  endedAt: number[] = [];
  constructor(
    private readonly clock: StepClock,
    private readonly costMs: number,
  ) {
    super();
  }
  override appendTurn(turn: NewTurn) {
    if (turn.message.role === 'assistant') this.endedAt.push(this.clock.now());
    this.clock.value += this.costMs;
    return super.appendTurn(turn);
  }
  override batch(writes: () => void): void {
    this.clock.value += this.costMs;
    super.batch(writes);
  }
}

describe('the retry wait', () => {
  it('is due at the moment the error arrived plus the delay, not after the bookkeeping', async () => {
    const clock = new StepClock();
    const history = new SlowHistory(clock, 700);
    const h = harness([{ error: '503 Service Unavailable' }, { error: '503 Service Unavailable' }], {
      clock,
      history,
      settings: { retry: { baseDelayMs: 1000, jitterMaxMs: 0 } },
    });
    await h.session.prompt('hello');
    const starts = h.events.filter((e): e is AutoRetryStartEvent => e.type === 'auto_retry_start');
    expect(starts.map((s) => s.delayMs)).toEqual([1000, 2000]);
    // Each failure reached message_end at endedAt; 700 ms of "disk" later the deadline had not moved.
    expect(starts.map((s) => s.retryAt)).toEqual([history.endedAt[0] + 1000, history.endedAt[1] + 2000]);
  });

  it('writes each event in one transaction: chain, link and decision together', async () => {
    const h = harness([{ error: '503 Service Unavailable' }]);
    await h.session.prompt('hello');
    // user turn, errored turn, retry start (chain + link + decision), recovered turn, end (decision + link + close)
    expect(h.history.transactions).toBe(5);
    expect(h.history.decisions.map((d) => d.finalDecision)).toEqual([null, 'success']);
    expect([...h.history.chains.values()].map((c) => c.outcome)).toEqual(['recovered']);
  });
});
