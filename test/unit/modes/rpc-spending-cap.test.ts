// The spending cap's question as RPC's confirm (src/main/modes/rpc/rpc-approvals.ts; docs/tools.md,
// "The spending cap"): it says which cap it is — the chat's, or the whole app's for the day.
import { describe, expect, it } from 'vitest';
import { spendingCapRequest } from '../../../src/main/modes/rpc/rpc-approvals';
import type { SpendingCapRequest } from '../../../src/shared/spending-cap';

const request: SpendingCapRequest = {
  id: 'q1',
  sessionId: 's1',
  requestedAt: 0,
  spent: { tokens: 4995, costUsd: 0 },
  estimate: { tokens: 10, costUsd: null },
  cap: { tokens: 5000 },
  raiseTo: { tokens: 10_000 },
};

describe('spendingCapRequest', () => {
  it("names the chat's cap", () => {
    expect(spendingCapRequest(request)).toMatchObject({
      method: 'confirm',
      title: 'Spending cap reached',
      message: expect.stringMatching(/^This chat has used 4995 tokens\. .* its cap of 5000 tokens\. Confirm to raise/),
    });
  });

  it("names the day's cap for all chats", () => {
    expect(spendingCapRequest({ ...request, scope: 'day' })).toMatchObject({
      title: 'Daily spending cap reached',
      message: expect.stringMatching(/^All chats have used 4995 tokens today\. .* the day's cap of 5000 tokens\./),
    });
  });
});
