// The Electron bridge: the contract's commands over the preload's transport (window.resoluteIpc).
// An error reply becomes the same BridgeError, with the same code, as over the WebSocket; IPC
// cannot drop, so there is no connection state. A streaming message comes as patches
// (shared/message-patch.ts), decoded here once for every listener. Only pick-bridge.ts constructs it.
import { replyResult, type ResoluteBridge } from '../../../shared/bridge';
import type { AppCommandId } from '../../../shared/app-commands';
import type { CommandName, CommandParams, CommandResult } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { IpcTransport } from '../../../shared/ipc';
import { PatchDecoder } from '../../../shared/message-patch';

export class IpcBridge implements ResoluteBridge {
  readonly host = 'electron' as const;
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  #unsubscribe: (() => void) | null = null;

  constructor(private readonly ipc: IpcTransport) {}

  async call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    return replyResult<CommandResult<N>>(await this.ipc.request(method, params), method);
  }

  onEvent(listener: (event: SessionEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#unsubscribe ??= this.#subscribe();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      this.#unsubscribe?.();
      this.#unsubscribe = null;
    };
  }

  onAppCommand(listener: (id: AppCommandId) => void): () => void {
    return this.ipc.onAppCommand(listener);
  }

  onLink(listener: (url: string) => void): () => void {
    return this.ipc.onLink(listener);
  }

  /** One decoder per subscription: it must see every event the main process sent since. */
  #subscribe(): () => void {
    const patches = new PatchDecoder();
    return this.ipc.onEvent((wire) => {
      const event = patches.decode(wire);
      if (event === null) return;
      for (const listener of [...this.#listeners]) listener(event);
    });
  }
}
