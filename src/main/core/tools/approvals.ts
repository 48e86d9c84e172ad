// Approvals (docs/tools.md, "Approvals"): a tool call that must ask waits here until the person
// answers — Allow once, Allow for this session (that tool stops asking until the session
// changes), or Deny — or until the turn is stopped, which counts as Deny. Every client hears the
// request (tool_approval_request) and the answer (tool_approval_end); the snapshot lists what is
// still waiting. A request is kept (`keep`) until answered: a quit holds it instead of denying it,
// and after a restart it is restored with its chat, its answer going on with the run
// (docs/tools.md, "Approvals"). Owned by the ToolCoordinator.
import type { ApprovalEvent } from '../../../shared/events';
import type { ApprovalChoice, ApprovalRequest } from '../../../shared/tools';

interface Waiting {
  request: ApprovalRequest;
  resolve: (choice: ApprovalChoice) => void;
  /** Asked before a restart: a switch of chat leaves it stored, unanswered. */
  restored?: boolean;
}

/** A quit stopped the wait: the request stays stored, to be asked again after the restart. */
export const HELD = 'held';

export interface ApprovalBrokerOptions {
  emit: (event: ApprovalEvent) => void;
  newId: () => string;
  now: () => number;
  /** Where requests are kept until answered. */
  keep?: { asked(request: ApprovalRequest): void; answered(id: string): void };
  /** The app is quitting: a wait the turn's stop ends is held, not denied. */
  holding?: () => boolean;
}

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly allowedForSession = new Set<string>();

  constructor(private readonly options: ApprovalBrokerOptions) {}

  /** The requests still waiting, oldest first. */
  get pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  isAllowedForSession(tool: string): boolean {
    return this.allowedForSession.has(tool);
  }

  /** Ask the person; resolves with their choice, or 'deny' when `signal` aborts first ('held' when a quit did). */
  ask(input: Omit<ApprovalRequest, 'id' | 'requestedAt'>, signal?: AbortSignal): Promise<ApprovalChoice | typeof HELD> {
    if (signal?.aborted) return Promise.resolve(this.options.holding?.() ? HELD : 'deny');
    const request: ApprovalRequest = { ...input, id: this.options.newId(), requestedAt: this.options.now() };
    this.options.keep?.asked(request);
    return new Promise<ApprovalChoice | typeof HELD>((resolve) => {
      const onAbort = () => {
        if (!this.options.holding?.()) return void this.answer(request.id, 'deny');
        this.waiting.delete(request.id);
        resolve(HELD);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.id, {
        request,
        resolve: (choice) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(choice);
        },
      });
      this.options.emit({ type: 'tool_approval_request', request });
    });
  }

  /** Answer a waiting request; false when it is not waiting (answered already, or unknown). */
  answer(id: string, choice: ApprovalChoice): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    this.options.keep?.answered(id);
    if (choice === 'session') this.allowedForSession.add(waiting.request.toolName);
    this.options.emit({ type: 'tool_approval_end', id, choice });
    waiting.resolve(choice);
    return true;
  }

  /** A request asked before a restart, waiting again; `onAnswer` goes on with the run. */
  restore(request: ApprovalRequest, onAnswer: (choice: ApprovalChoice) => void): void {
    this.waiting.set(request.id, { request, resolve: onAnswer, restored: true });
    this.options.emit({ type: 'tool_approval_request', request });
  }

  /**
   * The person starts a new run instead of answering the requests restored after a restart: each
   * is denied (kept no more, its card ended) and returned, for its call to be given the denial.
   */
  denyRestored(): ApprovalRequest[] {
    const restored = [...this.waiting.values()].filter((w) => w.restored).map((w) => w.request);
    for (const { id } of restored) {
      this.waiting.delete(id);
      this.options.keep?.answered(id);
      this.options.emit({ type: 'tool_approval_end', id, choice: 'deny' });
    }
    return restored;
  }

  /** A stored request that no longer fits its conversation (its call was answered elsewhere): forgotten. */
  drop(id: string): void {
    this.options.keep?.answered(id);
  }

  /** A new or resumed conversation: nothing waits (a restored request stays stored), nothing is allowed any more. */
  reset(): void {
    for (const [id, waiting] of [...this.waiting]) {
      if (!waiting.restored) this.answer(id, 'deny');
      else this.waiting.delete(id);
    }
    this.allowedForSession.clear();
  }
}
