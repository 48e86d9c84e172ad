// The change an approval card asks about (docs/tools.md, "Approvals"): the head of the diff, then —
// when that is not all of it — how many lines are not shown and a "Show all" button that reveals
// the rest, so a line at the end (say a `curl … | sh`) is never allowed unseen. A whole-file
// replacement (texts too different to compare line by line) says so above the diff.
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalPreview } from '../../../shared/tools';
import { previewHead } from './preview-head';
import { CutNote, useShowAll } from './ApprovalText';
import { DiffView } from './DiffView';

type DiffPreview = Extract<ApprovalPreview, { kind: 'diff' }>;

export function ApprovalDiff({ requestId, preview }: { requestId: string; preview: DiffPreview }) {
  const { t } = useTranslation();
  const [showAll, setShowAll] = useShowAll(`${requestId}:diff`);
  const diffBox = useRef<HTMLDivElement>(null);
  const head = previewHead(preview.diff);
  const cut = !showAll && head.hiddenLines > 0;
  return (
    <>
      {preview.whole && (
        <p className="approval-note" data-testid="approval-whole">
          {t('tools.wholeReplace', { before: preview.whole.beforeLines, after: preview.whole.afterLines })}
        </p>
      )}
      {/* Takes the focus after Show all (the button goes away): the card's keys keep working. */}
      <div ref={diffBox} tabIndex={-1} className="approval-diff-box">
        <DiffView diff={cut ? head.shown.join('\n') : preview.diff} testId="approval-diff" />
      </div>
      {cut && (
        <CutNote
          text={t('tools.previewCut', { count: head.hiddenLines, total: head.totalLines })}
          onShowAll={() => {
            setShowAll();
            requestAnimationFrame(() => diffBox.current?.focus());
          }}
        />
      )}
    </>
  );
}
