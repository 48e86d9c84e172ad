// The sandboxed preload against a FAKE contextBridge and ipcRenderer (vi.mock('electron'): the
// Electron binary cannot run here). It exposes exactly one object, window.resoluteIpc; refuses a
// command outside the contract before anything crosses; frames requests on the call channel and
// hands back the main process's reply frame (errors keep their code); forwards events from the
// event channel until the listener is removed. The names it lets through are the command table's,
// as the build puts them in.
import type { IpcRendererEvent } from 'electron';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMAND_NAMES, type CommandName } from '../../../src/shared/contract';
import { IPC_CHANNELS, type IpcTransport } from '../../../src/shared/ipc';

type Handler = (event: IpcRendererEvent, payload: unknown) => void;

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as { channel: string; frame: { kind: string; id: number; method: string; params: unknown } }[],
  reply: null as unknown,
  listeners: new Map<string, Set<Handler>>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (channel: string, frame: (typeof fake.invoked)[number]['frame']) => {
      fake.invoked.push({ channel, frame });
      return fake.reply;
    },
    on: (channel: string, handler: Handler) => {
      if (!fake.listeners.has(channel)) fake.listeners.set(channel, new Set());
      fake.listeners.get(channel)?.add(handler);
    },
    removeListener: (channel: string, handler: Handler) => fake.listeners.get(channel)?.delete(handler),
  },
}));

let transport: IpcTransport;

beforeAll(async () => {
  // What electron.vite.config.ts puts into the preload's build: the names of the command table.
  vi.stubGlobal('__RESOLUTE_COMMAND_NAMES__', COMMAND_NAMES);
  await import('../../../src/preload/index');
  transport = fake.exposed.get('resoluteIpc') as IpcTransport;
});

describe('the preload transport', () => {
  it('exposes one object, resoluteIpc, and nothing else', () => {
    expect([...fake.exposed.keys()]).toEqual(['resoluteIpc']);
  });

  it('sends a request frame on the call channel and returns the reply frame', async () => {
    fake.reply = { kind: 'response', id: 1, ok: true, result: { version: '0.1.0' } };
    await expect(transport.request('app.info', {})).resolves.toEqual(fake.reply);
    const last = fake.invoked.at(-1);
    expect(last?.channel).toBe(IPC_CHANNELS.call);
    expect(last?.frame).toMatchObject({ kind: 'request', method: 'app.info', params: {} });
  });

  it('numbers requests so replies can be told apart', async () => {
    fake.reply = { kind: 'response', id: 0, ok: true, result: {} };
    await transport.request('app.info', {});
    await transport.request('app.info', {});
    const [a, b] = fake.invoked.slice(-2).map((call) => call.frame.id);
    expect(b).toBe(a + 1);
  });

  it("passes the main process's error reply through with its code", async () => {
    fake.reply = { kind: 'response', id: 2, ok: false, error: { code: 'invalid_params', message: 'bad params' } };
    await expect(transport.request('app.info', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: 'bad params' },
    });
  });

  it('refuses a command outside the contract without sending anything', async () => {
    const sent = fake.invoked.length;
    const reply = await transport.request('fs.readFile' as CommandName, {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(fake.invoked).toHaveLength(sent);
  });

  it('lets every command of the table through, and only those', async () => {
    fake.reply = { kind: 'response', id: 0, ok: true, result: {} };
    const sent = fake.invoked.length;
    for (const method of COMMAND_NAMES) await transport.request(method, {});
    expect(fake.invoked.slice(sent).map((call) => call.frame.method)).toEqual(COMMAND_NAMES);
    await transport.request('toString' as CommandName, {});
    expect(fake.invoked).toHaveLength(sent + COMMAND_NAMES.length);
  });

  it('forwards events from the event channel until unsubscribed', () => {
    const seen: unknown[] = [];
    const unsubscribe = transport.onEvent((event) => seen.push(event));
    const emit = (payload: unknown) =>
      fake.listeners.get(IPC_CHANNELS.event)?.forEach((handler) => handler({} as IpcRendererEvent, payload));
    emit({ type: 'agent_start' });
    unsubscribe();
    emit({ type: 'agent_end', messages: [] });
    expect(seen).toEqual([{ type: 'agent_start' }]);
    expect(fake.listeners.get(IPC_CHANNELS.event)?.size).toBe(0);
  });

  it("passes the desktop menu's app commands, only the declared ones, until unsubscribed", () => {
    const seen: unknown[] = [];
    const unsubscribe = transport.onAppCommand((id) => seen.push(id));
    const send = (id: unknown) =>
      fake.listeners.get(IPC_CHANNELS.appCommand)?.forEach((handler) => handler({} as IpcRendererEvent, id));
    send('newChat');
    send('toString');
    send('rm -rf');
    send({ id: 'newChat' });
    send('exportJson');
    unsubscribe();
    send('newChat');
    expect(seen).toEqual(['newChat', 'exportJson']);
  });

  it('keeps resolute:// links sent before the page listens, then passes only such links, until unsubscribed', () => {
    const send = (url: unknown) =>
      fake.listeners.get(IPC_CHANNELS.link)?.forEach((handler) => handler({} as IpcRendererEvent, url));
    send('resolute://chat/first');
    send('https://example.com/');
    send({ url: 'resolute://new' });
    send(`resolute://new?prompt=${'a'.repeat(20_000)}`);
    const seen: string[] = [];
    const unsubscribe = transport.onLink((url) => seen.push(url));
    send('resolute://new?prompt=hi');
    send('javascript:alert(1)');
    unsubscribe();
    send('resolute://chat/after');
    expect(seen).toEqual(['resolute://chat/first', 'resolute://new?prompt=hi']);
  });
});
