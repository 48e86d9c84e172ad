// A sidebar row's second line: what that chat is doing while the person is elsewhere
// (docs/architecture.md, "Chats side by side") — replying, retrying with its countdown, scheduled
// with its clock time, waiting for an approval or the network — and, for a chat not shown, that a
// reply or a failure came there and has not been seen. Part of the row's link, so it is read with it.
import { useTranslation } from 'react-i18next';
import type { SessionActivity } from '../../../../shared/events';
import { formatClockTime, formatTimeLeft } from '../../retry/scheduled-time';
import { useNow } from '../../util/use-now';

/** The line of a chat that is not shown (the shown one says all this in the chat itself). */
export function SessionActivityLine({ activity }: { activity: SessionActivity }) {
  const text = useActivityText(activity);
  if (!text) return null;
  return (
    <span
      className="sidebar-activity"
      data-testid="sidebar-activity"
      data-state={activity.state}
      data-attention={activity.attention}
    >
      {activity.attention && <span className="sidebar-activity-dot" aria-hidden="true" />}
      {text}
    </span>
  );
}

function useActivityText(activity: SessionActivity): string | null {
  const { t, i18n } = useTranslation();
  // A countdown ticks each second; a clock time far away needs no more than a minute's refresh.
  const now = useNow(activity.state === 'retrying' || activity.state === 'pacing' ? 1000 : 30_000);
  const until = activity.until ?? now;
  switch (activity.state) {
    case 'streaming':
      return t('nav.activity.streaming');
    case 'retrying':
      return t('nav.activity.retrying', { left: formatTimeLeft(t, until, now) });
    case 'scheduled':
      return t('nav.activity.scheduled', { time: formatClockTime(until, now, i18n.language) });
    case 'offline':
      return t('nav.activity.offline');
    case 'approval':
      return t('nav.activity.approval');
    case 'pacing':
      return t('nav.activity.pacing', { left: formatTimeLeft(t, until, now) });
    case 'compacting':
      return t('nav.activity.compacting');
    case 'idle':
      if (activity.attention === 'failed') return t('nav.activity.failed');
      if (activity.attention === 'reply') return t('nav.activity.reply');
      return null;
  }
}
