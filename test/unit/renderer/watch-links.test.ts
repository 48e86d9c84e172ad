// Where the window takes links from (links/open-link.ts, docs/hosts.md "Deep links"): the desktop's
// link channel and the browser mode's #/link/<path>, which is taken out of the address (the token's
// query stays); each is opened once the first snapshot is in, never before; a hash change later
// is a link too. The bridge is a fake; a link to a chat resumes it.
import { describe, expect, it } from 'vitest';
import { watchLinks, type LinkWindow } from '../../../src/renderer/src/links/open-link';
import { linkRuntime } from '../../../src/renderer/src/links/link-runtime';
import { createActions } from '../../../src/renderer/src/store/actions';
import { createAppStore } from '../../../src/renderer/src/store/app-store';
import { fakeBridge, snapshot } from './fixtures';

function fakeWindow(hash: string) {
  const listeners: (() => void)[] = [];
  const win: LinkWindow & { replaced: string[]; fire(hash: string): void } = {
    location: { hash, pathname: '/', search: '?x=1' },
    history: { state: null, replaceState: (_s, _t, url) => void win.replaced.push(String(url)) },
    addEventListener: (_type, listener) => void listeners.push(listener),
    replaced: [],
    fire(next) {
      win.location = { ...win.location, hash: next };
      listeners.forEach((l) => l());
    },
  };
  return win;
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
};

describe('watchLinks', () => {
  it('opens the address’s link after the first snapshot, taking it out of the address', async () => {
    const { bridge, calls } = fakeBridge({ 'session.resume': () => ({ sessionId: 'abc' }) });
    const store = createAppStore();
    const actions = createActions(bridge, store);
    const win = fakeWindow('#/link/chat/abc');
    watchLinks(linkRuntime(store, actions), bridge, win);
    expect(win.replaced).toEqual(['/?x=1']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls.map((c) => c.method)).toEqual([]);
    actions.dispatch({ type: 'session_changed', snapshot: snapshot() });
    await until(() => calls.length > 0);
    expect(calls).toEqual([{ method: 'session.resume', params: { sessionId: 'abc' } }]);
  });

  it("takes the desktop's link channel and a later #/link/ too; other fragments are not links", async () => {
    const { bridge } = fakeBridge();
    let send: (url: string) => void = () => undefined;
    bridge.onLink = (listener) => {
      send = listener;
      return () => undefined;
    };
    const store = createAppStore();
    const actions = createActions(bridge, store);
    actions.dispatch({ type: 'session_changed', snapshot: snapshot() });
    const win = fakeWindow('#main');
    watchLinks(linkRuntime(store, actions), bridge, win);
    expect(win.replaced).toEqual([]);
    send('resolute://nowhere');
    await until(() => store.getState().ui.link !== null);
    expect(store.getState().ui.link).toMatchObject({ kind: 'refused', reason: 'unknown-path' });
    win.fire(`#/link/mcp/add?name=a&config=${Buffer.from('{"command":"x"}').toString('base64')}`);
    await until(() => store.getState().ui.link?.kind !== 'refused');
    expect(store.getState().ui.link).toMatchObject({ kind: 'mcp-add', name: 'a', config: { command: 'x' } });
    expect(win.replaced).toEqual(['/?x=1']);
  });
});
