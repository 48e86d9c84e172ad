// The store and the actions as open-link.ts's LinkRuntime: what a link shows lives in the store's
// ui.link; a chat opens through resume, a new chat with its text through newChatWithText, and an
// MCP server is added through the same settings update as Settings → MCP's import. Made by
// main.tsx (for watchLinks) and LinkDialog (for the answer).
import type { Actions } from '../store/actions';
import type { AppStore } from '../store/state';
import type { LinkPrompt, LinkRuntime } from './open-link';

export function linkRuntime(store: AppStore, actions: Actions): LinkRuntime {
  return {
    link: () => store.getState().ui.link,
    show(link: LinkPrompt | null) {
      const state = store.getState();
      store.setState({ ...state, ui: { ...state.ui, link } }, true);
    },
    serverNames: () => Object.keys(store.getState().settings.values?.mcp.servers ?? {}),
    openChat: (sessionId) => actions.resume(sessionId),
    newChatWithText: (text) => actions.newChatWithText(text),
    async addServer(name, config) {
      if (await actions.updateSettings('mcp.servers', { mcp: { servers: { [name]: config } } })) return null;
      return store.getState().settings.fieldErrors['mcp.servers'] ?? '';
    },
    showMcpSettings() {
      actions.showView('settings');
      actions.requestFocus('settings-mcp');
    },
    isConnected: () => store.getState().session.sessionId !== null,
    subscribe: (listener) => store.subscribe(listener),
  };
}
