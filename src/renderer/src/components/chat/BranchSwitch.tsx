// The "‹ 1/2 ›" switcher on a message that has other versions (an edit, a resend, a regenerate;
// docs/architecture.md, "Branches"), and the context through which the chat and the history's
// session view each keep which version they show. MessageBubble renders it; without a provider
// (nowhere to keep a choice) it renders nothing.
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { BranchVersions } from '../../../../shared/history';

/** Show the version stored at `seq` of the fork after `fork`. */
export type ChooseVersion = (fork: number, seq: number) => void;

export const BranchChoiceContext = createContext<ChooseVersion | null>(null);

export function BranchSwitch({ versions }: { versions: BranchVersions }) {
  const { t } = useTranslation();
  const choose = useContext(BranchChoiceContext);
  if (!choose) return null;
  const { fork, index, count, seqs } = versions;
  const go = (to: number) => choose(fork, seqs[to]);
  return (
    <span className="branch-switch" role="group" aria-label={t('branch.label')} data-testid="branch-switch">
      <button
        type="button"
        className="button button-small"
        data-testid="branch-previous"
        aria-label={t('branch.previous')}
        disabled={index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span className="branch-count" data-testid="branch-versions" aria-hidden="true">
        {index + 1} / {count}
      </span>
      <span className="visually-hidden" aria-live="polite">
        {t('branch.position', { index: index + 1, count })}
      </span>
      <button
        type="button"
        className="button button-small"
        data-testid="branch-next"
        aria-label={t('branch.next')}
        disabled={index === count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </span>
  );
}
