// The renderer's view of the main process: one call function typed by the contract and one
// event subscription. The Electron preload and the WebSocket client both implement it, so the
// renderer does not know which host it runs in.
import type { CommandName, CommandParams, CommandResult } from './contract';
import type { SessionEvent } from './events';

export interface ResoluteBridge {
  readonly host: 'electron' | 'browser';
  call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>>;
  onEvent(listener: (event: SessionEvent) => void): () => void;
  /** Connection state changes (the WebSocket can drop; IPC never does). */
  onConnection?(listener: (connected: boolean) => void): () => void;
}

/** Error thrown by a bridge call: carries the main process's code and message. */
export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}
