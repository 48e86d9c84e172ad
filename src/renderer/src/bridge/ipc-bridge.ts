// The Electron bridge: the contract's commands over the preload's transport (window.resoluteIpc).
// An error reply becomes the same BridgeError, with the same code, as over the WebSocket; IPC
// cannot drop, so there is no connection state. Only pick-bridge.ts constructs it.
import { replyResult, type ResoluteBridge } from '../../../shared/bridge';
import type { CommandName, CommandParams, CommandResult } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { IpcTransport } from '../../../shared/ipc';

export class IpcBridge implements ResoluteBridge {
  readonly host = 'electron' as const;

  constructor(private readonly ipc: IpcTransport) {}

  async call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    return replyResult<CommandResult<N>>(await this.ipc.request(method, params), method);
  }

  onEvent(listener: (event: SessionEvent) => void): () => void {
    return this.ipc.onEvent(listener);
  }
}
