// What the Esc key does, as a stack of handlers (docs/retry-policy.md, "Cancel and abort"): the
// base handler stops the streaming turn; while a retry is pending, a handler that cancels the retry
// sits on top, and popping it restores whatever was there before. The key listener in main.tsx
// calls handle().
import type { SessionEvent } from '../../../shared/events';

export type EscHandler = () => void;

export class EscHandlerStack {
  readonly #entries: { token: symbol; handler: EscHandler }[] = [];

  constructor(private readonly base: EscHandler) {}

  /** Make `handler` the current one; the returned function restores the previous one (idempotent). */
  push(handler: EscHandler): () => void {
    const token = Symbol('esc-handler');
    this.#entries.push({ token, handler });
    // Removing by token (not pop) keeps the stack right even if restores happen out of order.
    return () => {
      const index = this.#entries.findIndex((e) => e.token === token);
      if (index >= 0) this.#entries.splice(index, 1);
    };
  }

  /** Run the current handler (the top of the stack, else the base). */
  handle(): void {
    const top = this.#entries[this.#entries.length - 1];
    (top ? top.handler : this.base)();
  }

  get depth(): number {
    return this.#entries.length;
  }
}

/**
 * Swaps the Esc handler on retry events: auto_retry_start (or a pause offline) pushes `abortRetry` once per chain
 * (later attempts of the same chain keep it), auto_retry_end restores the previous handler.
 * A snapshot (session_changed) re-syncs, so a reconnect mid-backoff still gets the swap.
 */
export class RetryEscSwap {
  #restore: (() => void) | null = null;

  constructor(
    private readonly stack: EscHandlerStack,
    private readonly abortRetry: EscHandler,
  ) {}

  onEvent(event: SessionEvent): void {
    if (event.type === 'auto_retry_start' || event.type === 'auto_retry_paused') this.#swapIn();
    else if (event.type === 'auto_retry_end') this.#swapOut();
    else if (event.type === 'session_changed') {
      if (event.snapshot.pendingRetry) this.#swapIn();
      else this.#swapOut();
    }
  }

  get isSwapped(): boolean {
    return this.#restore !== null;
  }

  #swapIn(): void {
    if (!this.#restore) this.#restore = this.stack.push(this.abortRetry);
  }

  #swapOut(): void {
    this.#restore?.();
    this.#restore = null;
  }
}
