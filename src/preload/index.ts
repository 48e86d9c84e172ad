// The sandboxed preload: exposes one small typed bridge (window.resoluteBridge) and nothing
// else — no ipcRenderer, no Node. Every call names a command of the shared contract, checked
// here before it crosses; the main process validates the params again.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isCommandName, type CommandName } from '../shared/command-names';
import type { CommandParams, CommandResult } from '../shared/contract';
import type { SessionEvent } from '../shared/events';
import type { ResoluteBridge } from '../shared/bridge';
import type { ResponseFrame } from '../shared/wire';

const CALL_CHANNEL = 'resolute:call';
const EVENT_CHANNEL = 'resolute:event';

let nextId = 1;

const bridge: ResoluteBridge = {
  host: 'electron',
  async call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    // Errors cross contextBridge as plain Errors (classes do not survive it): the message carries the code.
    if (!isCommandName(method)) throw new Error(`unknown_command: unknown command "${String(method)}"`);
    const reply = (await ipcRenderer.invoke(CALL_CHANNEL, {
      kind: 'request',
      id: nextId++,
      method,
      params,
    })) as ResponseFrame;
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.result as CommandResult<N>;
  },
  onEvent(listener: (event: SessionEvent) => void): () => void {
    const handler = (_event: IpcRendererEvent, payload: SessionEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('resoluteBridge', bridge);
