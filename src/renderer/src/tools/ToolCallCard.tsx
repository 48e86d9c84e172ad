// One tool call in the chat or the history (docs/tools.md, "In the chat"): a collapsible card with
// the tool, a one-line summary of its arguments, its status (waiting, running, exit code, failure
// category) and duration; open, the arguments, the live or final output, and edit/write diffs.
import { useTranslation } from 'react-i18next';
import type { ToolCallItem } from '../chat/tool-items';
import { formatSeconds } from '../util/format';
import { DiffView } from './DiffView';
import { isMcpToolName } from '../../../shared/tools';

/**
 * The line a person recognises a call by: the tool's own summary (its definition in the main
 * process words it, and the result keeps it), else — a call cut short before it ran — its path,
 * command or first text argument.
 */
export function argumentSummary(item: Pick<ToolCallItem, 'args' | 'details'>): string {
  if (item.details.summary !== undefined) return item.details.summary;
  const { args } = item;
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : '');
  const first = Object.values(args).find((value): value is string => typeof value === 'string');
  return text('path') || text('command') || (first ?? '');
}

function StatusBadge({ item }: { item: ToolCallItem }) {
  const { t } = useTranslation();
  const { exitCode, timedOut } = item.details;
  let label = t(`tools.status.${item.status}`);
  // An MCP call's effects cannot be seen from here: what it did is unknown (docs/mcp.md, "Failures").
  if (item.status === 'interrupted' && isMcpToolName(item.toolName)) label = t('tools.status.interruptedUnknown');
  else if (item.errorCategory) label = t(`category.${item.errorCategory}`);
  else if (timedOut) label = t('tools.timedOut');
  else if (typeof exitCode === 'number' && item.status !== 'running') label = t('tools.exitCode', { code: exitCode });
  const tone =
    item.status === 'error' || item.errorCategory
      ? 'badge-error'
      : item.status === 'done'
        ? 'badge-ok'
        : item.status === 'denied' || item.status === 'waiting' || item.status === 'interrupted'
          ? 'badge-warning'
          : '';
  return (
    <span className={`badge ${tone}`} data-testid="tool-card-status">
      {label}
    </span>
  );
}

export function ToolCallCard({ item, isOpen = false }: { item: ToolCallItem; isOpen?: boolean }) {
  const { t } = useTranslation();
  const summary = argumentSummary(item);
  const { durationMs, diff } = item.details;
  const isBash = item.toolName === 'bash';
  // What the summary, the command line or the diff already shows is not repeated.
  const shown = new Set(['path', 'content', ...(isBash ? ['command'] : []), ...(diff ? ['edits'] : [])]);
  const otherArgs = Object.fromEntries(Object.entries(item.args).filter(([key]) => !shown.has(key)));
  return (
    <div
      className={`tool-card tool-${item.status}`}
      data-testid="tool-card"
      data-tool={item.toolName}
      data-status={item.status}
      data-category={item.errorCategory ?? undefined}
    >
      {/* A running command is open to show its output as it comes; the approval card shows a waiting one. */}
      <details open={isOpen || (isBash && item.status === 'running') || undefined}>
        {/* Named by what it shows (a label unlike the visible text fails WCAG 2.5.3), with "Tool call:" for screen readers. */}
        <summary className="tool-card-head">
          <span className="visually-hidden">{t('tools.cardPrefix')} </span>
          <span className="tool-name">{item.toolName}</span>
          <code className="tool-summary">{summary}</code>
          <StatusBadge item={item} />
          {durationMs !== undefined && (
            <span className="tool-duration">
              {durationMs < 1000
                ? t('tools.durationMs', { ms: durationMs })
                : t('tools.duration', { seconds: formatSeconds(durationMs / 1000) })}
            </span>
          )}
        </summary>
        <div className="tool-card-body">
          {isBash && <pre className="tool-command">$ {summary}</pre>}
          {Object.keys(otherArgs).length > 0 && (
            <>
              <h3 className="tool-section">{t('tools.arguments')}</h3>
              <pre className="tool-args">{JSON.stringify(otherArgs, null, 2)}</pre>
            </>
          )}
          {diff ? (
            <>
              <h3 className="tool-section">{t('tools.change')}</h3>
              <DiffView diff={diff} testId="tool-card-diff" />
            </>
          ) : null}
          <h3 className="tool-section">{t('tools.output')}</h3>
          <pre
            className="tool-output"
            data-testid="tool-card-output"
            aria-live={item.status === 'running' ? 'polite' : undefined}
          >
            {item.output || t('tools.noOutput')}
          </pre>
          {item.images
            .filter((image) => /^image\/[\w.+-]+$/.test(image.mimeType))
            .map((image, i) => (
              <img
                key={i}
                className="tool-image"
                data-testid="tool-card-image"
                src={`data:${image.mimeType};base64,${image.data}`}
                alt={t('tools.image', { n: i + 1 })}
              />
            ))}
        </div>
      </details>
      <FileHistoryNote item={item} />
    </div>
  );
}

/** What the file history could not keep of this call, or that it cannot see an MCP tool's writes (docs/file-history.md). */
function FileHistoryNote({ item }: { item: ToolCallItem }) {
  const { t } = useTranslation();
  const { notRecorded, filesUntracked } = item.details;
  if (!notRecorded?.length && !filesUntracked) return null;
  return (
    <p className="tool-note" data-testid="tool-card-not-recorded">
      {filesUntracked ? t('files.untracked') : t('files.notRecorded', { what: notRecorded?.join('; ') ?? '' })}
    </p>
  );
}
