// A small strip shown while the WebSocket is down ("Disconnected — reconnecting…") or before the
// first connection; hidden when connected. Electron's IPC is always connected.
import { useTranslation } from 'react-i18next';
import { useAppState } from '../../store/app-store';

export function ConnectionStatus() {
  const { t } = useTranslation();
  const connection = useAppState((s) => s.ui.connection);
  if (connection === 'connected') return null;
  return (
    <div className={`connection-status connection-${connection}`} role="alert" data-testid="connection-status">
      {t(`connection.${connection}`)}
    </div>
  );
}
