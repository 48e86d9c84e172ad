// The command palette (issue 30): Ctrl/Cmd+Shift+P, or "/" at the start of an empty composer,
// opens it (both a request for the 'palette' focus target); it lists the app commands the
// declarations put in the palette (src/shared/app-commands.ts, bound in bindings.ts), filtered as
// the person types. ↑/↓ choose, Enter runs, Esc (the native dialog's cancel) closes. Rendered once by App.
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions, useAppStore } from '../store/app-store';
import { useFocusRequest } from '../util/use-focus-target';
import type { FocusTarget } from '../store/state';
import { paletteCommands, type OfferedCommand } from './bindings';

const isPalette = (target: FocusTarget): boolean => target === 'palette' || target === 'palette-typed';

export function CommandPalette() {
  const { t } = useTranslation();
  const actions = useActions();
  const store = useAppStore();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  // What holds as it opens: it is modal, so nothing else changes the chat or the view meanwhile.
  const [commands, setCommands] = useState<OfferedCommand[]>([]);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = commands.filter((c) => words.every((w) => c.label.toLowerCase().includes(w)));
  const current = Math.min(active, Math.max(0, shown.length - 1));

  // Opened by a "/" typed in the message box: "/" and the words after it are the person's text
  // unless they run a command (a message may start with a path).
  const typed = useRef(false);
  const [isTyped, setIsTyped] = useState(false);
  useFocusRequest(isPalette, (target) => {
    typed.current = target === 'palette-typed';
    setIsTyped(typed.current);
    setCommands(paletteCommands({ actions, state: store.getState(), t }));
    setQuery('');
    setActive(0);
    if (!dialog.current?.open) dialog.current?.showModal();
  });

  const run = (command: OfferedCommand | undefined): void => {
    if (!command) {
      if (typed.current) dialog.current?.close();
      return;
    }
    typed.current = false;
    dialog.current?.close();
    command.run();
  };

  // Esc, or Enter with nothing matching: the typed "/…" goes back to the message box.
  const onClose = (): void => {
    if (!typed.current) return;
    typed.current = false;
    actions.giveBackText(`/${query}`);
    actions.requestFocus('composer');
  };

  return (
    <dialog
      ref={dialog}
      className="dialog palette"
      data-testid="command-palette"
      aria-label={t('palette.label')}
      onClose={onClose}
    >
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
        {shown.length === 0 && (
          <li className="palette-empty">
            {isTyped ? t('palette.noneTyped', { text: `/${query}` }) : t('palette.none')}
          </li>
        )}
      </ul>
    </dialog>
  );
}
