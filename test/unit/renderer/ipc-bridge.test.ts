// The Electron path without Electron: the preload's transport (src/preload/transport.ts) over a fake
// ipcRenderer, wrapped by the renderer's IpcBridge. A refusal reaches the page as the same
// BridgeError — same code, same message — as over the WebSocket; an unknown command is refused in
// the preload with the main process's own wording. (Electron cannot run here: ipcRenderer is faked.)
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../src/shared/bridge';
import type { SessionEvent } from '../../../src/shared/events';
import { IPC_CHANNELS } from '../../../src/shared/ipc';
import { COMMAND_NAMES } from '../../../src/shared/contract';
import { parseRequest, type ResponseFrame } from '../../../src/shared/wire';
import { createIpcTransport, type IpcRendererLike } from '../../../src/preload/transport';
import { IpcBridge } from '../../../src/renderer/src/bridge/ipc-bridge';
import { WebSocketBridge } from '../../../src/renderer/src/bridge/websocket-bridge';
import { PatchEncoder } from '../../../src/shared/message-patch';
import type { ChatMessage } from '../../../src/shared/messages';

type Listener = (event: unknown, payload: SessionEvent) => void;

/** A stand-in for ipcRenderer whose main side validates frames like the router does. */
function fakeIpc(answer: (frame: { id: number; method: string }) => ResponseFrame | Promise<ResponseFrame>) {
  const invoked: { channel: string; frame: unknown }[] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, frame) => {
      invoked.push({ channel, frame });
      return answer(frame as { id: number; method: string });
    },
    on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  const send = (channel: string, payload: SessionEvent) => listeners.get(channel)?.forEach((l) => l({}, payload));
  return { ipc, invoked, send };
}

/** The router's answer to a frame whose params are invalid: what parseRequest returns. */
function refuse(frame: unknown): ResponseFrame {
  const parsed = parseRequest(frame);
  if (parsed.ok) throw new Error('expected a refusal');
  return { kind: 'response', id: parsed.id, ok: false, error: parsed.error };
}

/** The same reply delivered through the WebSocket bridge, for comparison. */
async function overWebSocket(reply: (id: number) => ResponseFrame, call: (b: WebSocketBridge) => Promise<unknown>) {
  let deliver: (data: string) => void = () => undefined;
  const bridge = new WebSocketBridge({
    url: 'ws://127.0.0.1:1/ws',
    createSocket: (_url, handlers) => {
      deliver = handlers.onMessage;
      queueMicrotask(() => handlers.onOpen());
      return {
        send: (data) => queueMicrotask(() => deliver(JSON.stringify(reply(JSON.parse(data).id)))),
        close: () => undefined,
      };
    },
  });
  try {
    return await call(bridge).catch((error: unknown) => error);
  } finally {
    bridge.dispose();
  }
}

describe('IpcBridge over the preload transport', () => {
  it('resolves with the result of an ok reply, sent on the call channel as a request frame', async () => {
    const { ipc, invoked } = fakeIpc((frame) => ({
      kind: 'response',
      id: frame.id,
      ok: true,
      result: { aborted: true },
    }));
    const bridge = new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES));
    await expect(bridge.call('session.abortRetry', {})).resolves.toEqual({ aborted: true });
    expect(invoked).toEqual([
      { channel: IPC_CHANNELS.call, frame: { kind: 'request', id: 1, method: 'session.abortRetry', params: {} } },
    ]);
  });

  it('rejects an error reply with the same BridgeError, code and message, as the WebSocket bridge', async () => {
    const bad = { patch: 'not an object' } as never;
    const { ipc } = fakeIpc(refuse);
    const viaIpc = await new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES))
      .call('settings.update', bad)
      .catch((e: unknown) => e);
    const viaSocket = await overWebSocket(
      (id) => refuse({ kind: 'request', id, method: 'settings.update', params: bad }),
      (b) => b.call('settings.update', bad),
    );
    expect(viaIpc).toBeInstanceOf(BridgeError);
    expect(viaSocket).toBeInstanceOf(BridgeError);
    expect(viaIpc).toMatchObject({
      code: 'invalid_params',
      message: expect.stringMatching(/^settings\.update: patch/),
    });
    expect({ ...(viaIpc as BridgeError), message: (viaIpc as Error).message }).toEqual({
      ...(viaSocket as BridgeError),
      message: (viaSocket as Error).message,
    });
  });

  it('refuses an unknown command in the preload, worded as the main process words it, without crossing', async () => {
    const { ipc, invoked } = fakeIpc(() => {
      throw new Error('must not be invoked');
    });
    const error = await new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES))
      .call('session.nope' as never, {} as never)
      .catch((e: unknown) => e);
    expect(invoked).toEqual([]);
    expect(error).toBeInstanceOf(BridgeError);
    const main = refuse({ kind: 'request', id: 1, method: 'session.nope' });
    expect(main.ok ? null : main.error).toEqual({ code: 'unknown_command', message: 'unknown command "session.nope"' });
    expect(error).toMatchObject(main.ok ? {} : main.error);
  });

  it('turns a failure of Electron itself into a "failed" BridgeError', async () => {
    const { ipc } = fakeIpc(() => Promise.reject(new Error("No handler registered for 'resolute:call'")));
    const error = await new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES))
      .call('app.info', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'failed', message: expect.stringMatching(/No handler/) });
  });

  it('delivers events from the event channel until unsubscribed', () => {
    const { ipc, send } = fakeIpc(refuse);
    const seen: SessionEvent[] = [];
    const off = new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES)).onEvent((e) => seen.push(e));
    send(IPC_CHANNELS.event, { type: 'agent_start' });
    off();
    send(IPC_CHANNELS.event, { type: 'agent_end', messages: [] });
    expect(seen).toEqual([{ type: 'agent_start' }]);
  });

  it('decodes a patched stream once for every listener, and starts over when the last one leaves', () => {
    const { ipc, send } = fakeIpc(refuse);
    const bridge = new IpcBridge(createIpcTransport(ipc, COMMAND_NAMES));
    const first: SessionEvent[] = [];
    const second: SessionEvent[] = [];
    const offFirst = bridge.onEvent((e) => first.push(e));
    const offSecond = bridge.onEvent((e) => second.push(e));
    const encoder = new PatchEncoder();
    const update = (text: string): SessionEvent => ({
      type: 'message_update',
      message: { role: 'assistant', content: [{ type: 'text', text }], timestamp: 3 } as unknown as ChatMessage,
      assistantMessageEvent: { type: 'text_delta', contentIndex: 0 },
    });
    const sent = ['a', 'ab', 'abc'].map(update);
    for (const event of sent) send(IPC_CHANNELS.event, encoder.encode(event) as SessionEvent);
    expect(first).toEqual(sent);
    expect(second).toEqual(sent);
    offFirst();
    offSecond();
    // A listener after that has a new decoder: a patch on a base it never saw is dropped, a whole update is not.
    const third: SessionEvent[] = [];
    bridge.onEvent((e) => third.push(e));
    send(IPC_CHANNELS.event, encoder.encode(update('abcd')) as SessionEvent);
    send(IPC_CHANNELS.event, update('abcde'));
    expect(third).toEqual([update('abcde')]);
  });
});
