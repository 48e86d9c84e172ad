// The HTTP layer's hold (src/main/node/http-facts.ts, holdNext) faked at the stream boundary, for
// the tests of a retried run built before its wait ends (retry-prelaunch*.test.ts): a request taken
// under a hold waits for its release before the scripted stream answers it, and — like Node's
// fetch — a request whose signal is aborted (before or while it is held) is never sent.
import type { StreamFn } from '@mariozechner/pi-agent-core';
import type { HeldSend } from '../../../src/main/core/retry/provider-facts';

interface Gate {
  state: 'held' | 'open' | 'dropped';
  open?: () => void;
}

/** `log` says, in order, what was built (with its model), held, released, cancelled and sent. */
export class HeldRequests {
  log: string[] = [];
  private next: Gate | undefined;

  holdNext = (): HeldSend => {
    const gate: Gate = { state: 'held' };
    this.next = gate;
    const settle = (entry: string) => {
      this.log.push(entry);
      if (this.next === gate) this.next = undefined;
    };
    return {
      release: () => {
        if (gate.state !== 'held') return;
        gate.state = 'open';
        settle('release');
        gate.open?.();
      },
      cancel: () => {
        if (gate.state === 'held') gate.state = 'dropped';
        settle('cancel');
      },
    };
  };

  wrap(fn: StreamFn): StreamFn {
    return async (model, context, options) => {
      const gate = this.next?.state === 'held' ? this.next : undefined;
      this.next = undefined;
      this.log.push(`built ${model.id}${gate ? ' (held)' : ''}`);
      const signal = options?.signal;
      if (gate && !signal?.aborted)
        await new Promise<void>((resolve, reject) => {
          gate.open = resolve;
          signal?.addEventListener('abort', () => reject(new Error('Request was aborted')), { once: true });
        });
      if (signal?.aborted) throw new Error('Request was aborted');
      this.log.push('sent');
      return fn(model, context, options);
    };
  }
}
