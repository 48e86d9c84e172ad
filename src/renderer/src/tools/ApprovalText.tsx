// A command or an MCP call's arguments on the approval card (docs/tools.md, "Approvals"): the
// head only (textHead: 12 lines or 1,000 characters), then — when that is not all of it — how much
// is not shown and "Show all", as ApprovalDiff does for a change, so a tail after 70 empty lines
// or a long line is never allowed unseen. Long lines wrap. Used by ApprovalCard.tsx.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { textHead } from './preview-head';

/**
 * The previews a person opened with Show all, by request and preview: the chat's list may mount a
 * card's row again (a loaded machine showed it: the command folded back, the focus gone with it),
 * and what was shown stays shown.
 */
const shownAll = new Set<string>();

/** Show all for the preview `key` (its request and its test id), kept across mounts of the card. */
export function useShowAll(key: string): [boolean, () => void] {
  const [showAll, setShowAll] = useState(() => shownAll.has(key));
  return [
    showAll,
    () => {
      shownAll.add(key);
      setShowAll(true);
    },
  ];
}

export function ApprovalText({
  requestId,
  text,
  prefix = '',
  testId,
  className,
}: {
  requestId: string;
  text: string;
  prefix?: string;
  testId: string;
  className: string;
}) {
  const { t } = useTranslation();
  const [showAll, setShowAll] = useShowAll(`${requestId}:${testId}`);
  const box = useRef<HTMLPreElement>(null);
  const head = textHead(text);
  const cut = !showAll && head.hiddenChars > 0;
  return (
    <>
      {/* Takes the focus after Show all (the button goes away): the card's keys keep working. */}
      <pre ref={box} tabIndex={-1} className={`${className} approval-text`} data-testid={testId}>
        {prefix}
        {cut ? `${head.shown}…` : text}
      </pre>
      {cut && (
        <CutNote
          text={
            head.hiddenLines > 0
              ? t('tools.previewCut', { count: head.hiddenLines, total: head.totalLines })
              : t('tools.previewCutChars', { count: head.hiddenChars })
          }
          onShowAll={() => {
            setShowAll();
            requestAnimationFrame(() => box.current?.focus());
          }}
        />
      )}
    </>
  );
}

/** "N more … not shown — read them before you allow this" and Show all: the note under a cut preview. */
export function CutNote({ text, onShowAll }: { text: string; onShowAll: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="approval-note approval-cut" data-testid="approval-cut">
      <span>{text}</span>{' '}
      <button type="button" className="button button-small" data-testid="approval-show-all" onClick={onShowAll}>
        {t('tools.showAll')}
      </button>
    </p>
  );
}
