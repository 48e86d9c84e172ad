// The sandboxed preload: exposes one small transport (window.resoluteIpc, typed in shared/ipc.ts)
// and nothing else — no ipcRenderer, no Node. Every request names a command of the shared
// contract, checked in transport.ts before it crosses; the main process validates the params again.
import { contextBridge, ipcRenderer } from 'electron';
import { createIpcTransport } from './transport';

contextBridge.exposeInMainWorld('resoluteIpc', createIpcTransport(ipcRenderer));
