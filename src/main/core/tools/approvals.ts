// Approvals (docs/tools.md, "Approvals"): a tool call that must ask waits here until the person
// answers — Allow once, Allow for this session (that tool stops asking until the session
// changes), or Deny — or until the turn is stopped, which counts as Deny. Every client hears the
// request (tool_approval_request) and the answer (tool_approval_end); the snapshot lists what is
// still waiting. Owned by the ToolCoordinator.
import type { ApprovalEvent } from '../../../shared/events';
import type { ApprovalChoice, ApprovalRequest } from '../../../shared/tools';

interface Waiting {
  request: ApprovalRequest;
  resolve: (choice: ApprovalChoice) => void;
}

export interface ApprovalBrokerOptions {
  emit: (event: ApprovalEvent) => void;
  newId: () => string;
  now: () => number;
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

  /** Ask the person; resolves with their choice, or 'deny' when `signal` aborts first. */
  ask(input: Omit<ApprovalRequest, 'id' | 'requestedAt'>, signal?: AbortSignal): Promise<ApprovalChoice> {
    if (signal?.aborted) return Promise.resolve('deny');
    const request: ApprovalRequest = { ...input, id: this.options.newId(), requestedAt: this.options.now() };
    return new Promise<ApprovalChoice>((resolve) => {
      const onAbort = () => this.answer(request.id, 'deny');
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
    if (choice === 'session') this.allowedForSession.add(waiting.request.toolName);
    this.options.emit({ type: 'tool_approval_end', id, choice });
    waiting.resolve(choice);
    return true;
  }

  /** A new or resumed conversation: nothing waits, nothing is allowed any more. */
  reset(): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, 'deny');
    this.allowedForSession.clear();
  }
}
