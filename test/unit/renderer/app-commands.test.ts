// The app commands as the window derives them from their declarations (src/shared/app-commands.ts):
// the Settings shortcut list keeps its rows and words, a key press runs the command its chord
// declares, the palette lists what holds now in the declared order, and a command that reaches
// another component's control does it by a focus request in the store, not by looking in the page.
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_COMMAND_IDS, type AppCommandId } from '../../../src/shared/app-commands';
import { paletteCommands, runAppCommand } from '../../../src/renderer/src/commands/bindings';
import { handleShortcut, shortcutLabel, shortcutList } from '../../../src/renderer/src/commands/shortcuts';
import { en } from '../../../src/renderer/src/i18n/en';
import { ja } from '../../../src/renderer/src/i18n/ja';
import { createActions } from '../../../src/renderer/src/store/actions';
import { createAppStore } from '../../../src/renderer/src/store/app-store';
import { fakeBridge } from './fixtures';

const t = i18next.createInstance();
beforeAll(async () => {
  await t.init({
    resources: { en: { translation: en }, ja: { translation: ja } },
    lng: 'en',
    interpolation: { escapeValue: false },
  });
});

function press(key: string, mods: Partial<KeyboardEvent> = {}): KeyboardEvent {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    isComposing: false,
    preventDefault: vi.fn(),
    ...mods,
  } as unknown as KeyboardEvent;
}

function context() {
  const { bridge, calls } = fakeBridge();
  const store = createAppStore();
  const actions = createActions(bridge, store);
  return { store, actions, calls, ctx: () => ({ actions, state: store.getState(), t: t.t }) };
}

describe('Settings → Keyboard shortcuts', () => {
  it('lists every shortcut from the declarations, a command with two keys on one row, Ctrl+1…9 as a range', () => {
    const rows = shortcutList().map((row) => [row.keys, shortcutLabel(row, t.t)]);
    expect(rows).toEqual([
      ['Ctrl+N / Ctrl+Shift+O', 'New chat'],
      ['Ctrl+K', 'Search the history'],
      ['Ctrl+Shift+P', 'Open the command palette (also “/” at the start of an empty message)'],
      ['Shift+Esc', 'Go to the message box'],
      ['Ctrl+Tab / Ctrl+Shift+]', 'Next chat'],
      ['Ctrl+Shift+Tab / Ctrl+Shift+[', 'Previous chat'],
      ['Ctrl+1…9', 'Go to a chat of the sidebar by its place'],
      ['Ctrl+.', 'Show or hide the sidebar'],
      ['Ctrl+,', 'Open Settings'],
      ['Ctrl+/', 'Keyboard shortcuts'],
      ['Ctrl+Shift+C', 'Copy the last reply'],
      ['Ctrl+Shift+E', 'Turn thinking on or off'],
      ['Ctrl+U', 'Attach files…'],
      ['Esc', 'Cancel a retry, or stop a reply'],
      ['↑ ↓ → ←', 'Move in the chat list (then F2 to rename, Delete to delete)'],
    ]);
  });

  it('speaks ja', async () => {
    await t.changeLanguage('ja');
    const palette = shortcutList().find((row) => 'command' in row.what && row.what.command === 'openPalette');
    expect(palette && shortcutLabel(palette, t.t)).toBe(
      'コマンドパレットを開く（空のメッセージの先頭で「/」でも開きます）',
    );
    await t.changeLanguage('en');
  });
});

describe('handleShortcut', () => {
  it.each([
    ['n', { ctrlKey: true }, 'newChat'],
    ['n', { metaKey: true }, 'newChat'],
    ['k', { ctrlKey: true }, 'searchHistory'],
    ['P', { ctrlKey: true, shiftKey: true }, 'openPalette'],
    ['Escape', { shiftKey: true }, 'focusComposer'],
    ['O', { ctrlKey: true, shiftKey: true }, 'newChat'],
    ['Tab', { ctrlKey: true }, 'nextChat'],
    ['}', { ctrlKey: true, shiftKey: true }, 'nextChat'],
    ['Tab', { ctrlKey: true, shiftKey: true }, 'previousChat'],
    ['{', { metaKey: true, shiftKey: true }, 'previousChat'],
    ['.', { ctrlKey: true }, 'toggleSidebar'],
    [',', { metaKey: true }, 'openSettings'],
    ['/', { ctrlKey: true }, 'showShortcuts'],
    ['C', { ctrlKey: true, shiftKey: true }, 'copyLastReply'],
    ['E', { ctrlKey: true, shiftKey: true }, 'toggleThinking'],
    ['u', { ctrlKey: true }, 'attach'],
  ] as const)('%s %o runs %s and uses the key up', (key, mods, id) => {
    const run = vi.fn();
    const event = press(key, mods);
    expect(handleShortcut(event, run)).toBe(true);
    expect(run).toHaveBeenCalledExactlyOnceWith(id, expect.any(Number));
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('Ctrl+1…9 says which: Ctrl+3 is the third chat', () => {
    const run = vi.fn();
    expect(handleShortcut(press('3', { ctrlKey: true }), run)).toBe(true);
    expect(run).toHaveBeenCalledExactlyOnceWith('goToChat', 2);
  });

  it('leaves other keys, Alt chords and IME composition alone', () => {
    const run = vi.fn();
    for (const event of [
      press('n'),
      press('n', { ctrlKey: true, shiftKey: true }),
      press('n', { ctrlKey: true, altKey: true }),
      press('n', { ctrlKey: true, isComposing: true }),
      press('Escape'),
      press('p', { ctrlKey: true }),
      // Ctrl+Tab is Ctrl on every OS: ⌘+Tab belongs to macOS.
      press('Tab', { metaKey: true }),
      press('0', { ctrlKey: true }),
    ]) {
      expect(handleShortcut(event, run)).toBe(false);
    }
    expect(run).not.toHaveBeenCalled();
  });
});

describe('the palette and the bindings', () => {
  it('lists the palette commands in their declared order; export only with a chat, thinking only for a model that thinks', () => {
    const { store, ctx } = context();
    const ids = () => paletteCommands(ctx()).map((command) => command.id);
    expect(ids().slice(0, 5)).toEqual(['newChat', 'showChat', 'showHistory', 'nextChat', 'previousChat']);
    expect(ids()).not.toContain('exportJson');
    expect(ids().some((id) => id.startsWith('thinkingLevel-'))).toBe(false);
    store.setState({
      ...store.getState(),
      session: {
        ...store.getState().session,
        sessionId: 's1',
        model: { provider: 'simulator', id: 'resolute-sim-1', reasoning: true } as never,
      },
    });
    expect(ids()).toContain('exportJson');
    expect(paletteCommands(ctx()).filter((c) => c.id.startsWith('thinkingLevel-'))[0].label).toBe(
      'Thinking level: Off',
    );
    expect(ids().filter((id) => id.startsWith('settingsSection-')).length).toBeGreaterThan(5);
  });

  it('Switch model, Attach and a Settings section are focus requests for the component that owns the control', () => {
    const { store, ctx } = context();
    const querySelector = vi.fn();
    vi.stubGlobal('document', { querySelector, getElementById: querySelector });
    runAppCommand('switchModel', ctx());
    expect(store.getState().ui).toMatchObject({ view: 'chat', focus: { target: 'model-picker' } });
    runAppCommand('attach', ctx());
    expect(store.getState().ui.focus?.target).toBe('attach-picker');
    paletteCommands(ctx())
      .find((c) => c.id === 'settingsSection-settings-table')
      ?.run();
    expect(store.getState().ui).toMatchObject({ view: 'settings', focus: { target: 'settings-table' } });
    expect(querySelector).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('Ctrl+3, next and previous chat open the sidebar’s chats by their order, round the ends', () => {
    const { store, calls, ctx } = context();
    const chat = (id: string) => ({
      id,
      title: id,
      createdAt: 0,
      updatedAt: 0,
      model: '',
      provider: '',
      turnCount: 1,
      erroredTurnCount: 0,
      workspace: '',
    });
    const state = store.getState();
    store.setState({
      ...state,
      history: { ...state.history, sessions: ['a', 'b', 'c', 'd'].map(chat) },
      session: { ...state.session, sessionId: 'a' },
    });
    const resumed = () =>
      calls.filter((c) => c.method === 'session.resume').map((c) => (c.params as { sessionId: string }).sessionId);
    runAppCommand('goToChat', ctx(), 2);
    runAppCommand('goToChat', ctx(), 8);
    runAppCommand('nextChat', ctx());
    runAppCommand('previousChat', ctx());
    expect(resumed()).toEqual(['c', 'b', 'd']);
  });

  it('Copy the last reply copies the newest reply with words, and says so', async () => {
    const { store, ctx } = context();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const reply = (text: string) => ({
      role: 'assistant',
      message: {
        role: 'assistant',
        content: text ? [{ type: 'text', text }] : [{ type: 'toolCall', id: 't', name: 'ls', arguments: {} }],
      },
    });
    const state = store.getState();
    store.setState({
      ...state,
      session: { ...state.session, sessionId: 's1', turns: [reply('the answer'), reply('')] as never },
    });
    runAppCommand('copyLastReply', ctx());
    await vi.waitFor(() => expect(store.getState().ui.notices.at(-1)?.message).toBe('Copied the last reply.'));
    expect(writeText).toHaveBeenCalledExactlyOnceWith('the answer');
    vi.unstubAllGlobals();
  });

  it('Turn thinking on or off: off, then back to the level it had', () => {
    const { store, calls, ctx } = context();
    const state = store.getState();
    const withLevel = (thinkingLevel: string) =>
      store.setState({
        ...state,
        session: { ...state.session, model: { provider: 'p', id: 'm', reasoning: true, thinkingLevel } as never },
      });
    withLevel('high');
    runAppCommand('toggleThinking', ctx());
    withLevel('off');
    runAppCommand('toggleThinking', ctx());
    const levels = calls
      .filter((c) => c.method === 'settings.update')
      .map((c) => (c.params as { patch: { agent: { thinkingLevel: string } } }).patch.agent.thinkingLevel);
    expect(levels).toEqual(['off', 'high']);
  });

  it('Export needs a chat: run without one, it calls nothing', async () => {
    const { calls, ctx } = context();
    runAppCommand('exportJson', ctx());
    await Promise.resolve();
    expect(calls).toEqual([]);
  });

  it('every declared command has a label in en and ja', () => {
    for (const id of APP_COMMAND_IDS as AppCommandId[]) {
      expect(en.commands[id]).toBeTruthy();
      expect(ja.commands[id]).toBeTruthy();
    }
  });
});
