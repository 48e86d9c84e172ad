// Settings → MCP, under a server's row (docs/mcp.md): when it failed, when its next attempt in the
// background is and "Retry now" (mcp.retry); and for every server a "Show log" disclosure that
// fetches the last 200 lines of its stderr log (mcp.log) when opened, with a refresh. Used by McpSection.
import type { TFunction } from 'i18next';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpLogTail, McpServerStatus } from '../../../../shared/mcp-values';
import { useActions } from '../../store/app-store';
import { useNow } from '../../util/use-now';

/** "Next attempt at 14:05:09" or "Not tried again by itself", and the Retry now button. */
export function McpRetry({ status }: { status: Extract<McpServerStatus, { state: 'failed' }> }) {
  const { t, i18n } = useTranslation();
  const actions = useActions();
  const text = nextAttemptText(t, i18n.language, status.nextAttemptAt, useNow());
  return (
    <div className="mcp-retry">
      <span className="field-hint" data-testid="mcp-next-attempt">
        {text}
      </span>
      <button
        type="button"
        className="button button-small"
        data-testid="mcp-retry-now"
        onClick={() => void actions.call('mcp.retry', { name: status.name })}
      >
        {t('mcp.retryNow')}
      </button>
    </div>
  );
}

export function McpServerLog({ name }: { name: string }) {
  const { t } = useTranslation();
  const actions = useActions();
  const { value: tail, load, onToggle } = useLoadOnOpen<McpLogTail>(() => actions.call('mcp.log', { name }));
  return (
    <details className="mcp-log" data-testid="mcp-log" onToggle={onToggle}>
      <summary>{t('mcp.showLog')}</summary>
      {tail ? (
        <>
          <p className="field-hint" data-testid="mcp-log-where">
            {t(tail.truncated ? 'mcp.logTail' : 'mcp.logAll', { path: tail.path })}
          </p>
          {tail.text ? (
            // Focusable so a keyboard can scroll it.
            <pre className="mcp-log-text" data-testid="mcp-log-text" tabIndex={0}>
              {tail.text}
            </pre>
          ) : (
            <p className="field-hint" data-testid="mcp-log-empty">
              {t('mcp.logEmpty')}
            </p>
          )}
          <button
            type="button"
            className="button button-small"
            data-testid="mcp-log-refresh"
            onClick={() => void load()}
          >
            {t('mcp.logRefresh')}
          </button>
        </>
      ) : null}
    </details>
  );
}

/** What a disclosure shows, fetched each time it opens (and by `load`, its Refresh). */
export function useLoadOnOpen<T>(fetch: () => Promise<T | undefined>) {
  const [value, setValue] = useState<T | null>(null);
  const load = async (): Promise<void> => {
    const result = await fetch();
    if (result) setValue(result);
  };
  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>): void => {
    if (event.currentTarget.open) void load();
  };
  return { value, load, onToggle };
}

/**
 * "Next attempt at 02:12:46"; once that time has passed the attempt is under way (an initialize
 * can take seconds), so "Trying again now…" — never a time already gone; none planned: not by itself.
 */
export function nextAttemptText(t: TFunction, language: string, atMs: number | undefined, nowMs: number): string {
  if (atMs === undefined) return t('mcp.noNextAttempt');
  if (atMs <= nowMs) return t('mcp.attemptNow');
  return t('mcp.nextAttempt', { time: clockTime(atMs, language) });
}

/** 24-hour clock time with seconds: a background attempt is seconds away. */
function clockTime(atMs: number, language: string): string {
  const options: Intl.DateTimeFormatOptions = {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  };
  return new Intl.DateTimeFormat(language, options).format(new Date(atMs));
}
