// The command palette (issue 30): Ctrl/Cmd+Shift+P (util/shortcuts.ts), or "/" at the start of an
// empty composer, opens it; it lists the app's actions — a new chat, the views, switching the
// model, the thinking level (for a model that thinks), attaching files, each Settings section,
// exporting the chat — filtered as the person types. ↑/↓ choose,
// Enter runs, Esc (the native dialog's cancel) closes. Rendered once by App.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ModelInfo } from '../../../../shared/events';
import { THINKING_LEVELS } from '../../../../shared/settings-values';
import type { Actions } from '../../store/actions';
import { useActions, useAppState } from '../../store/app-store';
import { downloadText } from '../../util/download';
import { goToSection } from '../../util/go-to-section';
import { SETTINGS_SECTIONS } from '../settings/SettingsView';
import { chooseThinkingLevel } from '../chat/ThinkingControl';

const OPEN_EVENT = 'resolute:command-palette';

/** Open the palette from anywhere (a shortcut, the composer). */
export function openCommandPalette(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

interface Command {
  id: string;
  label: string;
  run: () => void;
}

/** Once the view has rendered: what a command reaches is on the page only then. */
const afterRender = (fn: () => void) => requestAnimationFrame(() => requestAnimationFrame(fn));

/** The composer's own file input: clicked while the palette's key press still counts as the person's gesture. */
function openFilePicker(actions: Actions): void {
  const find = () => document.querySelector<HTMLInputElement>('[data-testid="attach-input"]');
  const input = find();
  if (input) return input.click();
  actions.showView('chat');
  afterRender(() => find()?.click());
}

/** One command a level, as the header's Thinking control offers them; none for a model that does not think. */
function thinkingCommands(t: TFunction, actions: Actions, model: ModelInfo | null): Command[] {
  if (!model?.reasoning) return [];
  return THINKING_LEVELS.map((level) => ({
    id: `thinking-${level}`,
    label: t('palette.thinkingLevel', { level: t(`thinking.levels.${level}`) }),
    run: () => chooseThinkingLevel(actions, model, level),
  }));
}

interface Context {
  sessionId: string | null;
  host: string | null;
  model: ModelInfo | null;
}

function commandList(t: TFunction, actions: Actions, { sessionId, host, model }: Context): Command[] {
  const exportAs = (format: 'json' | 'markdown') => async () => {
    if (!sessionId) return;
    if (host === 'electron') return void (await actions.saveExport(sessionId, format));
    const file = await actions.exportSession(sessionId, format);
    if (file) downloadText(file.filename, file.mimeType, file.content);
  };
  return [
    { id: 'new-chat', label: t('nav.newChat'), run: () => void actions.newChat() },
    { id: 'chat', label: t('palette.goTo', { place: t('nav.chat') }), run: () => actions.showView('chat') },
    { id: 'history', label: t('palette.goTo', { place: t('nav.history') }), run: () => actions.showView('history') },
    {
      id: 'model',
      label: t('palette.switchModel'),
      run: () => {
        actions.showView('chat');
        afterRender(() => document.querySelector<HTMLElement>('[data-testid="model-picker"]')?.focus());
      },
    },
    ...thinkingCommands(t, actions, model),
    { id: 'attach', label: t('palette.attach'), run: () => openFilePicker(actions) },
    ...SETTINGS_SECTIONS.map(([section, key]) => ({
      id: section,
      label: t('palette.settingsSection', { section: t(key) }),
      run: () => {
        actions.showView('settings');
        afterRender(() => goToSection(section));
      },
    })),
    ...(sessionId
      ? [
          { id: 'export-markdown', label: t('palette.exportMarkdown'), run: () => void exportAs('markdown')() },
          { id: 'export-json', label: t('palette.exportJson'), run: () => void exportAs('json')() },
        ]
      : []),
  ];
}

export function CommandPalette() {
  const { t } = useTranslation();
  const actions = useActions();
  const sessionId = useAppState((s) => s.session.sessionId);
  const host = useAppState((s) => s.ui.host);
  const model = useAppState((s) => s.session.model);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const commands = useMemo(
    () => commandList(t, actions, { sessionId, host, model }),
    [t, actions, sessionId, host, model],
  );
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = commands.filter((c) => words.every((w) => c.label.toLowerCase().includes(w)));
  const current = Math.min(active, Math.max(0, shown.length - 1));

  useEffect(() => {
    const open = () => {
      setQuery('');
      setActive(0);
      if (!dialog.current?.open) dialog.current?.showModal();
    };
    window.addEventListener(OPEN_EVENT, open);
    return () => window.removeEventListener(OPEN_EVENT, open);
  }, []);

  const run = (command: Command | undefined): void => {
    if (!command) return;
    dialog.current?.close();
    command.run();
  };

  return (
    <dialog ref={dialog} className="dialog palette" data-testid="command-palette" aria-label={t('palette.label')}>
      <input
        className="input palette-input"
        role="combobox"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-activedescendant={shown.length > 0 ? `${id}-${current}` : undefined}
        aria-label={t('palette.label')}
        placeholder={t('palette.placeholder')}
        value={query}
        autoFocus
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive((current + 1) % Math.max(1, shown.length));
          else if (event.key === 'ArrowUp') setActive((current - 1 + shown.length) % Math.max(1, shown.length));
          else if (event.key === 'Enter') run(shown[current]);
          else return;
          event.preventDefault();
        }}
      />
      <ul className="palette-list" id={`${id}-list`} role="listbox" aria-label={t('palette.label')}>
        {shown.map((command, i) => (
          <li
            key={command.id}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === current}
            className="palette-option"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(command)}
          >
            {command.label}
          </li>
        ))}
        {shown.length === 0 && <li className="palette-empty">{t('palette.none')}</li>}
      </ul>
    </dialog>
  );
}
