// The spending cap's shared arithmetic (docs/tools.md, "The spending cap"): what Raise sets.
import { describe, expect, it } from 'vitest';
import { limitsSomething, raisedBudget } from '../../../src/shared/spending-cap';

describe('raisedBudget', () => {
  it('grows each limit by its own size until the request fits', () => {
    expect(raisedBudget({ usd: 5 }, { tokens: 0, costUsd: 5.2 })).toEqual({ usd: 10 });
    expect(raisedBudget({ usd: 5 }, { tokens: 0, costUsd: 12 })).toEqual({ usd: 15 });
    expect(raisedBudget({ tokens: 1000, usd: 1 }, { tokens: 3500, costUsd: null })).toEqual({ tokens: 4000, usd: 2 });
  });

  it('keeps an absent limit absent', () => {
    expect(raisedBudget({ tokens: 2000 }, { tokens: 2100, costUsd: 3 })).toEqual({ tokens: 4000 });
  });
});

describe('limitsSomething', () => {
  it('is false for no budget or an empty one', () => {
    expect(limitsSomething(null)).toBe(false);
    expect(limitsSomething({})).toBe(false);
    expect(limitsSomething({ tokens: 1000 })).toBe(true);
  });
});
