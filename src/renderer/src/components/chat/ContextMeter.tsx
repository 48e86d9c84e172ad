// The chat header's context meter and session total (docs/thinking-and-context.md): a
// role="meter" labelled "Context" that says how much of the model's window the last request used
// ("18.2k / 200k tokens, 9 %"), amber from 70 % and red from 90 % (an overflow goes to
// compaction), and opens its breakdown — instructions, messages, tool results — with Compact now;
// beside it the tokens and cost of the session's stored turns. ChatView renders it.
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { activePath, type SessionSummary, type TurnRecord } from '../../../../shared/history';
import type { ChatBudget } from '../../../../shared/spending-cap';
import { contextUsage, sessionTotalOf, shortTokens, type ContextUsage } from '../../chat/context-usage';
import { sessionCostText } from '../../chat/session-cost-text';
import { useActions, useAppState } from '../../store/app-store';
import { isTurnRunning } from '../../store/state';

export function ContextMeter() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [isOpen, setOpen] = useState(false);
  const { turns, pending, window } = useAppState(
    useShallow((s) => ({
      turns: s.session.turns,
      pending: s.session.pendingMessages,
      window: s.session.model?.contextWindow,
    })),
  );
  const usage = useMemo(
    () => contextUsage([...activePath(turns).map((turn) => turn.message), ...pending], window),
    [turns, pending, window],
  );
  useEscapeCloses(isOpen, () => setOpen(false));
  if (!window) return null;
  const used = usage?.used ?? 0;
  const percent = Math.round((used / window) * 100);
  const text = t('context.value', {
    used: shortTokens(used, i18n.language),
    window: shortTokens(window, i18n.language),
    percent,
  });
  return (
    <div className="context-group">
      <div
        role="meter"
        aria-label={t('context.label')}
        aria-valuemin={0}
        aria-valuemax={window}
        aria-valuenow={Math.min(used, window)}
        aria-valuetext={text}
        className={`context-meter context-${usage?.level ?? 'ok'}`}
        data-testid="context-meter"
        onClick={() => setOpen(!isOpen)}
      >
        <span className="context-bar" aria-hidden="true">
          <span className="context-fill" style={{ width: `${Math.min(100, percent)}%` }} />
        </span>
        <span className="context-text">{text}</span>
      </div>
      <button
        type="button"
        className="button button-small context-toggle"
        aria-expanded={isOpen}
        aria-controls={id}
        data-testid="context-details"
        onClick={() => setOpen(!isOpen)}
      >
        {t('context.details')}
      </button>
      <LiveSessionCost />
      {isOpen && <ContextBreakdown id={id} usage={usage} onDone={() => setOpen(false)} />}
    </div>
  );
}

/** Esc closes an open popover (wherever the focus is: it may be on the meter's button), and does only that. */
function useEscapeCloses(isOpen: boolean, close: () => void): void {
  const onEscape = useEffectEvent(close);
  useEffect(() => {
    if (!isOpen) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.isComposing) return;
      // Not also a stop or a retry's cancel (the window's Esc handler skips a handled key).
      event.preventDefault();
      onEscape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isOpen]);
}

function ContextBreakdown({ id, usage, onDone }: { id: string; usage: ContextUsage | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const isBusy = useAppState(isTurnRunning);
  // Compaction summarises what came before the last exchange: there must be one.
  const hasOlder = useAppState((s) => s.session.turns.filter((turn) => turn.role === 'user').length > 1);
  const tokens = (n: number): string => t('context.tokens', { count: n, tokens: shortTokens(n, i18n.language) });
  return (
    <div
      id={id}
      className="context-popover"
      role="group"
      aria-label={t('context.breakdown')}
      data-testid="context-breakdown"
    >
      {usage ? (
        <dl className="context-parts">
          <dt>{t('context.instructions')}</dt>
          <dd>{tokens(usage.parts.instructions)}</dd>
          <dt>{t('context.messages')}</dt>
          <dd>{tokens(usage.parts.messages)}</dd>
          <dt>{t('context.toolResults')}</dt>
          <dd>{tokens(usage.parts.toolResults)}</dd>
        </dl>
      ) : (
        <p>{t('context.empty')}</p>
      )}
      <p className="context-note">{t('context.estimate')}</p>
      <button
        type="button"
        className="button button-small"
        data-testid="compact-now"
        disabled={isBusy || !hasOlder}
        onClick={() => {
          onDone();
          void actions.compact();
        }}
      >
        {t('context.compact')}
      </button>
    </div>
  );
}

function LiveSessionCost() {
  const turns = useAppState((s) => s.session.turns);
  const summary = useAppState((s) => s.history.sessions.find((row) => row.id === s.session.sessionId));
  // The chat's own spending cap, else agent.budget's: "$1.20 of $5" (docs/tools.md, "The spending cap").
  const cap = useAppState((s) => s.session.budget ?? s.settings.values?.agent.budget);
  return <SessionCost turns={turns} summary={summary} cap={cap} />;
}

/**
 * A session's tokens and cost so far ("cost unknown" where no price is known); the history's
 * detail shows it too. `summary`: the session's row, whose total counts every stored turn.
 */
export function SessionCost({
  turns,
  summary,
  cap,
}: {
  turns: readonly TurnRecord[];
  summary?: SessionSummary;
  /** The chat's spending cap, shown as "… of $5" and "… of 50k tokens". */
  cap?: ChatBudget;
}) {
  const { t, i18n } = useTranslation();
  const total = useMemo(() => sessionTotalOf(summary, turns), [summary, turns]);
  return (
    <span className="session-cost" data-testid="session-cost" title={t('context.sessionHint')}>
      {sessionCostText(total, cap, t, i18n.language)}
    </span>
  );
}
