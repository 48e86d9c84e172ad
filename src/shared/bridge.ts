// The renderer's view of the main process: one call function typed by the contract and one
// event subscription. The IPC bridge (over the preload) and the WebSocket bridge both implement
// it, and both turn an error reply into the same BridgeError, so the renderer does not know
// which host it runs in.
import type { CommandName, CommandParams, CommandResult } from './contract';
import type { AppCommandId } from './app-commands';
import type { SessionEvent } from './events';
import type { ErrorCode, ResponseFrame, WireError } from './wire';

export interface ResoluteBridge {
  readonly host: 'electron' | 'browser';
  call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>>;
  onEvent(listener: (event: SessionEvent) => void): () => void;
  /**
   * Connection state changes (the WebSocket can drop; IPC never does). `refusal` says the server
   * turned the page away for good (no valid launch token): reconnecting will not help.
   */
  /** The desktop menu's app commands (src/shared/app-commands.ts); the browser has no menu. */
  onAppCommand?(listener: (id: AppCommandId) => void): () => void;
  /** resolute:// links the OS handed the desktop app (docs/hosts.md, "Deep links"); the browser reads its address. */
  onLink?(listener: (url: string) => void): () => void;
  onConnection?(listener: (connected: boolean, refusal?: 'unauthorized') => void): () => void;
}

/** The main process's codes, plus the two a bridge adds itself: no answer in time, connection gone. */
export type BridgeErrorCode = ErrorCode | 'timeout' | 'disconnected';

/** Error thrown by a bridge call: carries the main process's code and message. */
export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** The BridgeError for an error reply (a malformed one counts as "failed"). */
export function replyError(error: WireError | undefined, method: string): BridgeError {
  return new BridgeError(error?.code ?? 'failed', error?.message ?? `${method} failed`);
}

/** A reply's result, or its error thrown as a BridgeError: what every bridge's call() returns. */
export function replyResult<T>(reply: ResponseFrame, method: string): T {
  if (reply.ok) return reply.result as T;
  throw replyError(reply.error, method);
}
