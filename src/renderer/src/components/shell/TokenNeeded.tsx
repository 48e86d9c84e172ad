// The whole window when the browser-mode server refused this page's launch token (a tab opened on
// the app's address without ?token=, or after Resolute restarted): what to do, and nothing that
// looks usable. Rendered by App in place of the shell.
import { useTranslation } from 'react-i18next';

export function TokenNeeded() {
  const { t } = useTranslation();
  return (
    <main className="token-needed">
      <section className="token-needed-card" role="alert" data-testid="token-needed">
        <h1>{t('connection.unauthorizedTitle')}</h1>
        <p>{t('connection.unauthorized')}</p>
      </section>
    </main>
  );
}
