// What each app command runs (its declaration — label, shortcut, palette, menu — is in
// src/shared/app-commands.ts; the compiler wants one binding per declaration here). A command
// reaches a control another component owns through the store (a focus request the component
// honours), never by looking for it in the page. main.tsx runs them for shortcuts and the desktop
// menu; the palette lists them.
import type { TFunction } from 'i18next';
import { appCommands, type AppCommandId } from '../../../shared/app-commands';
import { THINKING_LEVELS } from '../../../shared/settings-values';
import type { Actions } from '../store/actions';
import type { AppState } from '../store/state';
import { commandLabel } from '../i18n/command-label';
import { downloadText } from '../util/download';
import { chooseThinkingLevel } from '../components/chat/ThinkingControl';
import { SETTINGS_SECTIONS } from '../components/settings/SettingsView';
import { sidebarSessions } from '../store/sidebar-sessions';
import { assistantText } from '../chat/tool-items';

export interface CommandContext {
  actions: Actions;
  /** The store's state when the command runs (or the palette opened). */
  state: AppState;
  t: TFunction;
}

/** One command, or a family's variant, as the palette offers it. */
export interface OfferedCommand {
  id: string;
  label: string;
  run: () => void;
}

type Binding =
  | {
      /** `which`: the shortcut pressed, by its place in the declaration's list (0 from the palette or menu). */
      run(ctx: CommandContext, which: number): void;
      /** Offered and run only while this holds (default: always). */
      when?(state: AppState): boolean;
    }
  /** A family (no shortcut, no menu): one palette entry per variant, labelled with `params`. */
  | { variants(ctx: CommandContext): { key: string; params: Record<string, string>; run(): void }[] };

const hasChat = (state: AppState): boolean => state.session.sessionId !== null;

async function exportChat({ actions, state }: CommandContext, format: 'json' | 'markdown'): Promise<void> {
  const { sessionId } = state.session;
  if (!sessionId) return;
  if (state.ui.host === 'electron') return void (await actions.call('history.saveExport', { sessionId, format }));
  const file = await actions.call('history.export', { sessionId, format });
  if (file) downloadText(file.filename, file.mimeType, file.content);
}

/** Open the chat `step` places from the one shown in the sidebar's order, round the ends. */
function stepChat({ actions, state }: CommandContext, step: number): void {
  const chats = sidebarSessions(state);
  if (chats.length === 0) return;
  const here = chats.findIndex((chat) => chat.id === state.session.sessionId);
  const next = chats[((((here < 0 ? (step > 0 ? -1 : 0) : here) + step) % chats.length) + chats.length) % chats.length];
  if (next.id !== state.session.sessionId) void actions.resume(next.id);
}

/** The words of the chat's last reply that has any (a tool-only step has none). */
function lastReplyText(state: AppState): string | null {
  for (let i = state.session.turns.length - 1; i >= 0; i -= 1) {
    const turn = state.session.turns[i];
    if (turn.role !== 'assistant') continue;
    const text = assistantText(turn.message).trim();
    if (text) return text;
  }
  return null;
}

async function copyLastReply({ actions, state, t }: CommandContext): Promise<void> {
  const text = lastReplyText(state);
  if (text === null) return actions.notify('info', t('commandNotices.nothingToCopy'));
  try {
    await navigator.clipboard.writeText(text);
    actions.notify('info', t('commandNotices.copiedLastReply'));
  } catch {
    actions.notify('error', t('commandNotices.copyFailed'));
  }
}

/** Thinking off, or back on at the level it had (else medium), for a model that thinks. */
function toggleThinking({ actions, state }: CommandContext): void {
  const { model } = state.session;
  if (!model?.reasoning) return;
  const level = model.thinkingLevel ?? 'off';
  if (level !== 'off') lastThinkingLevel = level;
  chooseThinkingLevel(actions, model, level === 'off' ? lastThinkingLevel : 'off');
}
let lastThinkingLevel: Exclude<(typeof THINKING_LEVELS)[number], 'off'> = 'medium';

/** Show the chat and hand `target` to the component that owns it. */
const inChat =
  (target: 'composer' | 'model-picker' | 'attach-picker') =>
  ({ actions }: CommandContext): void => {
    actions.showView('chat');
    actions.requestFocus(target);
  };

export const BINDINGS: { [Id in AppCommandId]: Binding } = {
  newChat: { run: ({ actions }) => void actions.newChat() },
  showChat: { run: ({ actions }) => actions.showView('chat') },
  showHistory: { run: ({ actions }) => actions.showView('history') },
  searchHistory: {
    run: ({ actions }) => {
      actions.showView('history');
      actions.requestFocus('history-search');
    },
  },
  openPalette: { run: ({ actions }) => actions.requestFocus('palette') },
  focusComposer: { run: inChat('composer') },
  nextChat: { run: (ctx) => stepChat(ctx, 1) },
  previousChat: { run: (ctx) => stepChat(ctx, -1) },
  goToChat: {
    run: ({ actions, state }, which) => {
      const chat = sidebarSessions(state)[which];
      if (chat && chat.id !== state.session.sessionId) void actions.resume(chat.id);
      else if (chat) actions.showView('chat');
    },
  },
  toggleSidebar: { run: ({ actions }) => actions.requestFocus('sidebar') },
  openSettings: { run: ({ actions }) => actions.showView('settings') },
  showShortcuts: {
    run: ({ actions }) => {
      actions.showView('settings');
      actions.requestFocus('settings-shortcuts');
    },
  },
  copyLastReply: { when: hasChat, run: (ctx) => void copyLastReply(ctx) },
  toggleThinking: { when: (state) => state.session.model?.reasoning === true, run: toggleThinking },
  switchModel: { run: inChat('model-picker') },
  thinkingLevel: {
    variants: ({ actions, state, t }) => {
      const { model } = state.session;
      if (!model?.reasoning) return [];
      return THINKING_LEVELS.map((level) => ({
        key: level,
        params: { level: t(`thinking.levels.${level}`) },
        run: () => chooseThinkingLevel(actions, model, level),
      }));
    },
  },
  attach: { run: inChat('attach-picker') },
  settingsSection: {
    variants: ({ actions, t }) =>
      SETTINGS_SECTIONS.map(([section, key]) => ({
        key: section,
        params: { section: t(key) },
        run: () => {
          actions.showView('settings');
          actions.requestFocus(section);
        },
      })),
  },
  exportMarkdown: { when: hasChat, run: (ctx) => void exportChat(ctx, 'markdown') },
  exportJson: { when: hasChat, run: (ctx) => void exportChat(ctx, 'json') },
};

/** A shortcut's or the menu's command; a family, or one not offered now, does nothing. */
export function runAppCommand(id: AppCommandId, ctx: CommandContext, which = 0): void {
  const binding = BINDINGS[id];
  if ('run' in binding && (binding.when?.(ctx.state) ?? true)) binding.run(ctx, which);
}

/** What the palette lists now, in the declarations' order. */
export function paletteCommands(ctx: CommandContext): OfferedCommand[] {
  return appCommands()
    .filter((command) => command.palette)
    .flatMap(({ id }): OfferedCommand[] => {
      const binding = BINDINGS[id];
      if ('variants' in binding) {
        return binding
          .variants(ctx)
          .map(({ key, params, run }) => ({ id: `${id}-${key}`, label: commandLabel(ctx.t, id, params), run }));
      }
      if (!(binding.when?.(ctx.state) ?? true)) return [];
      return [{ id, label: commandLabel(ctx.t, id), run: () => binding.run(ctx, 0) }];
    });
}
