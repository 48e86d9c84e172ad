// Esc denies a waiting tool call (docs/tools.md, "Approvals"): while an approval card shows, a
// deny handler sits on top of the Esc stack (retry/esc-handler.ts); when no request waits any
// more, the previous Esc behaviour comes back. main.tsx feeds it the store's waiting requests.
import type { ApprovalRequest } from '../../../shared/tools';
import type { EscHandlerStack } from '../retry/esc-handler';

export class ApprovalEscSwap {
  #restore: (() => void) | null = null;
  #first: ApprovalRequest | undefined;

  constructor(
    private readonly stack: EscHandlerStack,
    private readonly deny: (request: ApprovalRequest) => void,
  ) {}

  /** Call with the waiting requests whenever they may have changed. */
  onPending(pending: readonly ApprovalRequest[]): void {
    this.#first = pending[0];
    if (this.#first && !this.#restore) {
      this.#restore = this.stack.push(() => {
        if (this.#first) this.deny(this.#first);
      });
    } else if (!this.#first && this.#restore) {
      this.#restore();
      this.#restore = null;
    }
  }

  get isSwapped(): boolean {
    return this.#restore !== null;
  }
}
