// The sandboxed preload's bridge against a FAKE contextBridge and ipcRenderer (vi.mock('electron'):
// the Electron binary cannot run here). It exposes exactly one object, refuses a command outside the
// contract before anything crosses, frames requests for the main process, unwraps replies, and
// forwards events from the event channel until the listener is removed.
import type { IpcRendererEvent } from 'electron';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResoluteBridge } from '../../../src/shared/bridge';
import type { CommandName } from '../../../src/shared/command-names';

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

let bridge: ResoluteBridge;

beforeAll(async () => {
  await import('../../../src/preload/index');
  bridge = fake.exposed.get('resoluteBridge') as ResoluteBridge;
});

describe('the preload bridge', () => {
  it('exposes one object, resoluteBridge, and nothing else', () => {
    expect([...fake.exposed.keys()]).toEqual(['resoluteBridge']);
    expect(bridge.host).toBe('electron');
  });

  it('sends a request frame on the call channel and returns the result', async () => {
    fake.reply = { kind: 'response', id: 1, ok: true, result: { version: '0.1.0' } };
    await expect(bridge.call('app.info', {})).resolves.toEqual({ version: '0.1.0' });
    const last = fake.invoked.at(-1);
    expect(last?.channel).toBe('resolute:call');
    expect(last?.frame).toMatchObject({ kind: 'request', method: 'app.info', params: {} });
  });

  it('numbers requests so replies can be told apart', async () => {
    fake.reply = { kind: 'response', id: 0, ok: true, result: {} };
    await bridge.call('app.info', {});
    await bridge.call('app.info', {});
    const [a, b] = fake.invoked.slice(-2).map((call) => call.frame.id);
    expect(b).toBe(a + 1);
  });

  it("throws the main process's error message", async () => {
    fake.reply = { kind: 'response', id: 2, ok: false, error: { code: 'invalid_params', message: 'bad params' } };
    await expect(bridge.call('app.info', {})).rejects.toThrow('bad params');
  });

  it('refuses a command outside the contract without sending anything', async () => {
    const sent = fake.invoked.length;
    await expect(bridge.call('fs.readFile' as CommandName, {} as never)).rejects.toThrow(/^unknown_command/);
    expect(fake.invoked).toHaveLength(sent);
  });

  it('forwards events from the event channel until unsubscribed', () => {
    const seen: unknown[] = [];
    const unsubscribe = bridge.onEvent((event) => seen.push(event));
    const emit = (payload: unknown) =>
      fake.listeners.get('resolute:event')?.forEach((handler) => handler({} as IpcRendererEvent, payload));
    emit({ type: 'agent_start' });
    unsubscribe();
    emit({ type: 'agent_end', messages: [] });
    expect(seen).toEqual([{ type: 'agent_start' }]);
    expect(fake.listeners.get('resolute:event')?.size).toBe(0);
  });
});
