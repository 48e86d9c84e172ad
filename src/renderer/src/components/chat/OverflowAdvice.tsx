// What a card says when a message alone is too long for the model (a context overflow with nothing
// older to summarise): the model and its window, and — where the provider lists one — the model
// with the largest window, one click away. ErroredChainCard shows both; the composer already holds
// the text again (ChatView), so Enter then sends it to the larger model.
import { useTranslation } from 'react-i18next';
import type { ErroredChainItem } from '../../chat/chat-items';
import { latestAttempt } from '../../chat/chat-items';
import { useActions, useAppState } from '../../store/app-store';
import { formatNumber } from '../../util/format';

interface ModelWindow {
  id: string;
  window: number;
}

export interface OverflowFacts {
  current: ModelWindow;
  larger: ModelWindow | null;
}

/** A failed chain whose last attempt overflowed: it stopped (nothing to compact) rather than being compacted. */
export function isOverflowStop(item: ErroredChainItem): boolean {
  return item.status === 'failed' && latestAttempt(item).category === 'context_overflow';
}

/** The current model's window and the provider's model with the largest one above it, when known. */
export function useOverflowFacts(): OverflowFacts | null {
  const model = useAppState((s) => s.session.model);
  const windows = useAppState(
    (s) => s.settings.providers.find((p) => p.id === s.session.model?.provider)?.contextWindows,
  );
  const window = model && windows?.[model.id];
  if (!model || !windows || !window) return null;
  let larger: ModelWindow | null = null;
  for (const [id, size] of Object.entries(windows))
    if (size > window && size > (larger?.window ?? 0)) larger = { id, window: size };
  return { current: { id: model.id, window }, larger };
}

export function useOverflowText(facts: OverflowFacts | null): string | null {
  const { t, i18n } = useTranslation();
  if (!facts) return null;
  const { id, window } = facts.current;
  return t('outcome.tooLongForModel', { model: id, window: formatNumber(window, i18n.language) });
}

export function LargerModelButton({ larger }: { larger: ModelWindow }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const window = formatNumber(larger.window, i18n.language);
  return (
    <button
      type="button"
      className="button button-small"
      data-testid="card-larger-model"
      onClick={() =>
        void actions
          .updateSettings('provider.model', { provider: { model: larger.id } })
          .then(() => actions.requestFocus('composer'))
      }
    >
      {t('errored.useLargerModel', { model: larger.id, window })}
    </button>
  );
}
