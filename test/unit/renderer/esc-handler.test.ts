// Esc handling as a stack: by default Esc stops the stream; auto_retry_start swaps in abortRetry
// (once per chain) and auto_retry_end restores the previous handler (docs/retry-policy.md, "Cancel
// and abort").
import { describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../../src/shared/events';
import { EscHandlerStack, RetryEscSwap } from '../../../src/renderer/src/retry/esc-handler';
import { snapshot } from './fixtures';

const start = (attempt: number): SessionEvent => ({
  type: 'auto_retry_start',
  attempt,
  maxAttempts: 3,
  delayMs: 2000,
  errorMessage: '503',
  category: 'server_error',
  retryAt: 0,
  chainId: 'c1',
});
const end = (success: boolean): SessionEvent => ({
  type: 'auto_retry_end',
  success,
  attempt: 1,
  outcome: success ? 'recovered' : 'cancelled',
  chainId: 'c1',
  finalError: success ? undefined : 'Retry cancelled',
});

function setup() {
  const abort = vi.fn();
  const abortRetry = vi.fn();
  const stack = new EscHandlerStack(abort);
  const swap = new RetryEscSwap(stack, abortRetry);
  return { abort, abortRetry, stack, swap };
}

describe('EscHandlerStack', () => {
  it('runs the base handler when nothing is pushed', () => {
    const { abort, stack } = setup();
    stack.handle();
    expect(abort).toHaveBeenCalledOnce();
  });

  it('push makes a handler current and its restore brings back the previous one', () => {
    const base = vi.fn();
    const a = vi.fn();
    const b = vi.fn();
    const stack = new EscHandlerStack(base);
    const restoreA = stack.push(a);
    const restoreB = stack.push(b);
    stack.handle();
    expect(b).toHaveBeenCalledOnce();
    restoreB();
    stack.handle();
    expect(a).toHaveBeenCalledOnce();
    restoreA();
    restoreA();
    stack.handle();
    expect(base).toHaveBeenCalledOnce();
    expect(stack.depth).toBe(0);
  });

  it('restoring out of order removes the right entry', () => {
    const base = vi.fn();
    const a = vi.fn();
    const b = vi.fn();
    const stack = new EscHandlerStack(base);
    const restoreA = stack.push(a);
    stack.push(b);
    restoreA();
    stack.handle();
    expect(b).toHaveBeenCalledOnce();
    expect(a).not.toHaveBeenCalled();
  });
});

describe('RetryEscSwap', () => {
  it('auto_retry_start swaps Esc to abortRetry; auto_retry_end restores stop-the-stream', () => {
    const { abort, abortRetry, stack, swap } = setup();
    swap.onEvent(start(1));
    stack.handle();
    expect(abortRetry).toHaveBeenCalledOnce();
    expect(abort).not.toHaveBeenCalled();
    swap.onEvent(end(false));
    stack.handle();
    expect(abort).toHaveBeenCalledOnce();
    expect(abortRetry).toHaveBeenCalledOnce();
  });

  it('pushes once per chain: later attempts keep the same swap, one end restores', () => {
    const { stack, swap } = setup();
    swap.onEvent(start(1));
    swap.onEvent(start(2));
    swap.onEvent(start(3));
    expect(stack.depth).toBe(1);
    swap.onEvent(end(true));
    expect(stack.depth).toBe(0);
    expect(swap.isSwapped).toBe(false);
  });

  it('restores whatever was current before the retry, not just the base', () => {
    const { abortRetry, stack, swap } = setup();
    const dialogClose = vi.fn();
    const restoreDialog = stack.push(dialogClose);
    swap.onEvent(start(1));
    stack.handle();
    expect(abortRetry).toHaveBeenCalledOnce();
    swap.onEvent(end(true));
    stack.handle();
    expect(dialogClose).toHaveBeenCalledOnce();
    restoreDialog();
  });

  it('an end without a start is harmless; other events do not swap', () => {
    const { abort, stack, swap } = setup();
    swap.onEvent(end(false));
    swap.onEvent({ type: 'agent_start' });
    stack.handle();
    expect(abort).toHaveBeenCalledOnce();
  });

  it('a snapshot with a pending retry (reconnect mid-backoff) swaps in; one without swaps out', () => {
    const { abortRetry, stack, swap } = setup();
    const pendingRetry = {
      attempt: 1,
      maxAttempts: 3,
      delayMs: 1,
      errorMessage: 'e',
      category: 'rate_limit' as const,
      retryAt: 0,
      chainId: 'c1',
    };
    swap.onEvent({ type: 'session_changed', snapshot: snapshot({ pendingRetry }) });
    swap.onEvent({ type: 'session_changed', snapshot: snapshot({ pendingRetry }) });
    expect(stack.depth).toBe(1);
    stack.handle();
    expect(abortRetry).toHaveBeenCalledOnce();
    swap.onEvent({ type: 'session_changed', snapshot: snapshot() });
    expect(stack.depth).toBe(0);
  });
});
