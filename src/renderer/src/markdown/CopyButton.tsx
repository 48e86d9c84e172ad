// A Copy button: writes its text to the clipboard and says "Copied" for a moment (announced to
// screen readers). Used by code blocks and the message actions.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long "Copied" shows, ms. */
const COPIED_MS = 1500;

interface CopyButtonProps {
  text: string;
  testId: string;
  label?: string;
  /** The accessible name when the visible label alone is ambiguous ("Copy" next to many others). */
  ariaLabel?: string;
}

export function CopyButton({ text, testId, label, ariaLabel }: CopyButtonProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button
      type="button"
      className="button button-small"
      data-testid={testId}
      data-state={state}
      aria-label={state === 'idle' ? ariaLabel : undefined}
      onClick={() => void copy()}
    >
      <span aria-live="polite">
        {state === 'copied'
          ? t('actions.copied')
          : state === 'failed'
            ? t('actions.copyFailed')
            : (label ?? t('actions.copy'))}
      </span>
    </button>
  );
}
