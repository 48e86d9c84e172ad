// What a card says when a message alone is too long for the model (a context overflow with nothing
// older to summarise): the model and its window, and — where the provider lists one — the model
// with the largest window, one click away: it switches to that model and sends the message again.
// The model named is the one the failed attempt went to (its decision says), not the one chosen
// since. ErroredChainCard shows both.
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

/**
 * The window of the model the chain's message went to and the provider's model with the largest
 * one above it, when known.
 */
export function useOverflowFacts(item: ErroredChainItem): OverflowFacts | null {
  const sessionModel = useAppState((s) => s.session.model);
  const sent = item.decisions.at(-1)?.context;
  const model = sent ? { id: sent.modelId, provider: sent.provider } : sessionModel;
  const windows = useAppState((s) => s.settings.providers.find((p) => p.id === model?.provider)?.contextWindows);
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

/** Switches to the larger model, then sends the message again as the card's Resend does. */
export function LargerModelButton({ larger, item }: { larger: ModelWindow; item: ErroredChainItem }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const window = formatNumber(larger.window, i18n.language);
  const switchAndResend = async (): Promise<void> => {
    const switched = await actions.updateSettings('provider.model', { provider: { model: larger.id } });
    if (switched && item.prompt) await actions.edit(item.prompt.turnId, item.prompt.text);
    actions.requestFocus('composer');
  };
  return (
    <button
      type="button"
      className="button button-small"
      data-testid="card-larger-model"
      onClick={() => void switchAndResend()}
    >
      {t('errored.useLargerModel', { model: larger.id, window })}
    </button>
  );
}
