// What failures cost (src/main/core/session/attempt-cost.ts, src/shared/failure-cost.ts;
// docs/retry-policy.md, "What failures cost"): one attempt's cost from its usage and the model's
// list price, parameterised, "unknown" when there is no price, and the totals the failed-chain card
// and the history view show.
import { describe, expect, it } from 'vitest';
import { attemptCostUsd, type ModelPrice } from '../../../../src/main/core/session/attempt-cost';
import { formatUsd, summarizeFailedAttempts } from '../../../../src/shared/failure-cost';
import type { ChatUsage } from '../../../../src/shared/messages';

const SONNET: ModelPrice = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const usage = (input: number, output = 0, cacheRead = 0, cacheWrite = 0): ChatUsage => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  totalTokens: input + output + cacheRead + cacheWrite,
});

describe('attemptCostUsd', () => {
  it.each<[string, ChatUsage | null, ModelPrice | null, number | null]>([
    ['input only', usage(1_000_000), SONNET, 3],
    ['input and output', usage(1240, 100), SONNET, (1240 * 3 + 100 * 15) / 1e6],
    ['cache reads and writes at their own prices', usage(0, 0, 1000, 1000), SONNET, (300 + 3750) / 1e6],
    ['no usage reported: nothing', null, SONNET, 0],
    ['a free model', usage(5000, 50), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, 0],
    ['unknown price', usage(5000), null, null],
    ['a price that is not a number is unknown', usage(5000), { ...SONNET, output: Number.NaN }, null],
    ['a negative price is unknown', usage(5000), { ...SONNET, input: -1 }, null],
    ['garbage token counts count as none', { ...usage(100), output: -5, cacheRead: Number.NaN }, SONNET, 300 / 1e6],
  ])('%s', (_name, u, price, expected) => {
    const cost = attemptCostUsd(u, price);
    if (expected === null) expect(cost).toBeNull();
    else expect(cost).toBeCloseTo(expected, 12);
  });
});

describe('summarizeFailedAttempts', () => {
  it('adds tokens (cache reads as input) and the known costs, counting the unpriced attempts', () => {
    const totals = summarizeFailedAttempts([
      { usage: usage(400, 10), costUsd: 0.0015 },
      { usage: usage(400, 0, 40), costUsd: 0.0012 },
      { usage: usage(400), costUsd: null },
      { usage: null, costUsd: null },
    ]);
    expect(totals).toEqual({
      attempts: 4,
      inputTokens: 1240,
      outputTokens: 10,
      costUsd: 0.0027,
      unpricedAttempts: 2,
    });
  });

  it('is all zeros for no attempts', () => {
    expect(summarizeFailedAttempts([])).toMatchObject({ attempts: 0, inputTokens: 0, costUsd: 0 });
  });
});

describe('formatUsd', () => {
  it.each([
    [0.0037, '$0.004'],
    [0.00009, '$0.00009'],
    [0.123, '$0.12'],
    [1.5, '$1.50'],
    [0, '$0'],
  ])('%s → %s', (amount, text) => {
    expect(formatUsd(amount)).toBe(text);
  });
});
