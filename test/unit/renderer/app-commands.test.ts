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
  it('lists the same rows in the same words as before the declarations', () => {
    const rows = shortcutList().map((row) => [row.keys, shortcutLabel(row, t.t)]);
    expect(rows).toEqual([
      ['Ctrl+N', 'New chat'],
      ['Ctrl+K', 'Search the history'],
      ['Ctrl+Shift+P', 'Open the command palette (also “/” at the start of an empty message)'],
      ['Shift+Esc', 'Go to the message box'],
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
  ] as const)('%s %o runs %s and uses the key up', (key, mods, id) => {
    const run = vi.fn();
    const event = press(key, mods);
    expect(handleShortcut(event, run)).toBe(true);
    expect(run).toHaveBeenCalledExactlyOnceWith(id);
    expect(event.preventDefault).toHaveBeenCalled();
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
    expect(ids().slice(0, 5)).toEqual(['newChat', 'showChat', 'showHistory', 'switchModel', 'attach']);
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
