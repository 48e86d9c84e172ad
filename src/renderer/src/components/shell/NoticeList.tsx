// Notices from the main process (the `notice` event, in the UI language where its code is known)
// and failed calls, newest last, each dismissible. A polite log region, so they are announced
// without stealing focus.
import { useTranslation } from 'react-i18next';
import { noticeText } from '../../i18n/notice-text';
import { useActions, useAppState } from '../../store/app-store';

export function NoticeList() {
  const { t } = useTranslation();
  const actions = useActions();
  const notices = useAppState((s) => s.ui.notices);
  return (
    <div className="notices" role="log" aria-live="polite" aria-label={t('notice.label')}>
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.level}`} data-testid="notice">
          <span className="notice-text">{noticeText(t, notice)}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={t('notice.dismiss')}
            onClick={() => actions.dismissNotice(notice.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>
  );
}
