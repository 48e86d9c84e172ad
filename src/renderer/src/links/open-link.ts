// What the window does with a resolute:// link (docs/hosts.md, "Deep links"), from the Electron
// host's link channel or the browser mode's address (#/link/<path>): `chat/<id>` opens that chat,
// `new?prompt=` opens a new chat with the text in its box — never sent — and `mcp/add` puts the
// server's configuration on screen as a question (LinkDialog); it is added by the person's Add
// only, through the same settings update as Settings → MCP's import. A refused link says why.
// The parser (and zod) load with the first link. main.tsx calls watchLinks; LinkDialog answers.
import { linkFromFragment } from '../../../shared/deep-link-text';
import type { ResoluteBridge } from '../../../shared/bridge';
import { MCP_SERVER_NAME } from '../../../shared/mcp-values';
import type { Actions } from '../store/actions';
import type { AppState, AppStore, LinkPrompt } from '../store/state';

export interface LinkRuntime {
  store: AppStore;
  actions: Actions;
}

function setLink(store: AppStore, link: LinkPrompt | null): void {
  const state = store.getState();
  store.setState({ ...state, ui: { ...state.ui, link } }, true);
}

/** Act on one link: open, fill, or ask; a refusal is shown with its reason. */
export async function openLink({ store, actions }: LinkRuntime, url: string): Promise<void> {
  const { parseDeepLink } = await import('../../../shared/deep-link');
  const result = parseDeepLink(url);
  if (!result.ok) return setLink(store, { kind: 'refused', reason: result.reason, detail: result.detail });
  const link = result.link;
  switch (link.kind) {
    case 'chat':
      await actions.resume(link.sessionId);
      return;
    case 'new':
      await actions.newChatWithText(link.prompt);
      return;
    case 'mcp-add': {
      const taken = Object.keys(store.getState().settings.values?.mcp.servers ?? {});
      setLink(store, { kind: 'mcp-add', name: link.name, addAs: freeName(link.name, taken), config: link.config });
      return;
    }
  }
}

/**
 * A name beside the servers there are: a link never replaces a server, whose stored secrets would
 * otherwise stay with the link's command (a settings patch merges into the entry).
 */
export function freeName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, 32 - suffix.length)}${suffix}`;
    if (!taken.includes(candidate) && MCP_SERVER_NAME.test(candidate)) return candidate;
  }
}

/** The person's answer to the question: Add puts the server in the settings, anything else drops it. */
export async function answerLink({ store, actions }: LinkRuntime, add: boolean): Promise<void> {
  const link = store.getState().ui.link;
  if (!add || link?.kind !== 'mcp-add') return setLink(store, null);
  const servers = { [link.addAs]: link.config };
  if (!(await actions.updateSettings('mcp.servers', { mcp: { servers } }))) {
    const error = store.getState().settings.fieldErrors['mcp.servers'];
    return setLink(store, { ...link, error: error ?? '' });
  }
  setLink(store, null);
  // Settings → MCP shows it starting, where it can be switched off or removed.
  actions.showView('settings');
  actions.requestFocus('settings-mcp');
}

/** Whether the first snapshot is in: a link waits for it (the chat it opens needs the connection). */
const isConnected = (state: AppState) => state.session.sessionId !== null;

/** The browser's address as the page reads and rewrites it. */
export interface LinkWindow {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  addEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * Take links from wherever this host gives them — the bridge's link channel (Electron) and the
 * address's fragment (the browser mode; taken out of the address so a reload does not act again)
 * — and open each once the first snapshot is in.
 */
export function watchLinks(runtime: LinkRuntime, bridge: ResoluteBridge, win: LinkWindow): void {
  const waiting: string[] = [];
  const take = (url: string) => {
    if (isConnected(runtime.store.getState())) void openLink(runtime, url);
    else waiting.push(url);
  };
  const unsubscribe = runtime.store.subscribe((state) => {
    if (!isConnected(state)) return;
    unsubscribe();
    for (const url of waiting.splice(0)) void openLink(runtime, url);
  });
  bridge.onLink?.(take);
  const fromAddress = () => {
    const url = linkFromFragment(win.location.hash);
    if (url === null) return;
    win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}`);
    take(url);
  };
  fromAddress();
  win.addEventListener('hashchange', fromAddress);
}
