// The approval broker keeps what it asks (approvals.ts, docs/tools.md "Approvals"): a request is
// kept until answered; a quit's stop holds it (kept, not denied, no end event); a request restored
// after a restart waits again, its answer goes to its own callback, and a switch of chat leaves it
// stored instead of denying it.
import { describe, expect, it } from 'vitest';
import { ApprovalBroker, HELD } from '../../../../src/main/core/tools/approvals';
import type { ApprovalEvent } from '../../../../src/shared/events';
import type { ApprovalRequest } from '../../../../src/shared/tools';

function broker(holding = false) {
  const events: ApprovalEvent[] = [];
  const kept = new Map<string, ApprovalRequest>();
  let n = 0;
  const approvals = new ApprovalBroker({
    emit: (event) => events.push(event),
    newId: () => `r${++n}`,
    now: () => 1000,
    keep: { asked: (request) => kept.set(request.id, request), answered: (id) => kept.delete(id) },
    holding: () => holding,
  });
  return { approvals, events, kept, quit: () => (holding = true) };
}

const input = {
  toolCallId: 'c1',
  toolName: 'bash',
  args: { command: 'ls' },
  preview: { kind: 'command' as const, command: 'ls', timeoutSeconds: null },
};

describe('ApprovalBroker keeps its requests', () => {
  it('keeps a request until it is answered', async () => {
    const { approvals, kept } = broker();
    const choice = approvals.ask(input);
    expect([...kept.keys()]).toEqual(['r1']);
    approvals.answer('r1', 'once');
    expect(await choice).toBe('once');
    expect(kept.size).toBe(0);
  });

  it('a stop is a denial, but a quit holds the request: kept, no end event', async () => {
    const stopped = broker();
    const stop = new AbortController();
    const denied = stopped.approvals.ask(input, stop.signal);
    stop.abort();
    expect(await denied).toBe('deny');
    expect(stopped.kept.size).toBe(0);

    const quitting = broker();
    const quit = new AbortController();
    const held = quitting.approvals.ask(input, quit.signal);
    quitting.quit();
    quit.abort();
    expect(await held).toBe(HELD);
    expect([...quitting.kept.keys()]).toEqual(['r1']);
    expect(quitting.events.map((e) => e.type)).toEqual(['tool_approval_request']);
    expect(quitting.approvals.pending).toEqual([]);
  });

  it('a restored request waits again; its answer goes on; a switch of chat leaves it stored', () => {
    const { approvals, kept, events } = broker();
    const request: ApprovalRequest = { ...input, id: 'old', requestedAt: 5 };
    kept.set('old', request);
    const answers: string[] = [];
    approvals.restore(request, (choice) => answers.push(choice));
    expect(approvals.pending).toEqual([request]);
    expect(events).toEqual([{ type: 'tool_approval_request', request }]);
    approvals.reset();
    expect(approvals.pending).toEqual([]);
    expect(answers).toEqual([]);
    expect(kept.has('old')).toBe(true);

    approvals.restore(request, (choice) => answers.push(choice));
    expect(approvals.answer('old', 'session')).toBe(true);
    expect(answers).toEqual(['session']);
    expect(kept.has('old')).toBe(false);
    expect(approvals.isAllowedForSession('bash')).toBe(true);
  });
});
