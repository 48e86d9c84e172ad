// The sandboxed preload: exposes one small transport (window.resoluteIpc, typed in shared/ipc.ts)
// and nothing else — no ipcRenderer, no Node. Every request names a command of the shared
// contract (its names put in at build time), checked in transport.ts before it crosses; the main
// process validates the params again.
import { contextBridge, ipcRenderer } from 'electron';
import { createIpcTransport } from './transport';

/** The command table's names (src/shared/contract.ts), put in by the build: electron.vite.config.ts. */
declare const __RESOLUTE_COMMAND_NAMES__: readonly string[];

contextBridge.exposeInMainWorld('resoluteIpc', createIpcTransport(ipcRenderer, __RESOLUTE_COMMAND_NAMES__));
