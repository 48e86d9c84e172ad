// A resolute:// link on screen (docs/hosts.md, "Deep links"): the MCP server a link would add, its
// whole configuration shown as it is — command and each argument verbatim, the working folder,
// the names of its environment variables, or its URL and header names — with Add and Cancel
// (Esc); or why a link was refused. Nothing is added without Add (links/open-link.ts). In App.
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isHttpServer } from '../../../../shared/mcp-values';
import { answerLink, type LinkPrompt } from '../../links/open-link';
import { linkRuntime } from '../../links/link-runtime';
import { useActions, useAppState, useAppStore } from '../../store/app-store';

export function LinkDialog() {
  const { t } = useTranslation();
  const link = useAppState((s) => s.ui.link);
  const runtime = linkRuntime(useAppStore(), useActions());
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (link && !dialog.open) dialog.showModal();
    if (!link && dialog.open) dialog.close();
  }, [link]);
  const cancel = () => void answerLink(runtime, false);
  return (
    <dialog
      ref={ref}
      className="dialog link-dialog"
      aria-labelledby={`${id}-title`}
      data-testid="link-dialog"
      data-kind={link?.kind ?? ''}
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
    >
      {link?.kind === 'mcp-add' ? <McpQuestion t={t} link={link} titleId={`${id}-title`} /> : null}
      {link?.kind === 'refused' ? (
        <>
          <h2 className="dialog-title" id={`${id}-title`}>
            {t('links.refusedTitle')}
          </h2>
          <p data-testid="link-refused">{t(`links.reasons.${link.reason}`)}</p>
          {link.detail ? <p className="field-hint">{t('links.refusedDetail', { detail: link.detail })}</p> : null}
        </>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" data-testid="link-cancel" onClick={cancel} autoFocus>
          {link?.kind === 'mcp-add' ? t('links.cancel') : t('links.close')}
        </button>
        {link?.kind === 'mcp-add' ? (
          <button
            type="button"
            className="button button-primary"
            data-testid="link-add"
            onClick={() => void answerLink(runtime, true)}
          >
            {t('links.add')}
          </button>
        ) : null}
      </div>
    </dialog>
  );
}

type McpAsk = Extract<LinkPrompt, { kind: 'mcp-add' }>;

function McpQuestion({ t, link, titleId }: { t: TFunction; link: McpAsk; titleId: string }) {
  const { config } = link;
  return (
    <>
      <h2 className="dialog-title" id={titleId}>
        {t('links.mcpTitle')}
      </h2>
      <p>{t('links.mcpIntro', { name: link.name })}</p>
      {link.addAs !== link.name ? (
        <p className="field-hint" data-testid="link-renamed">
          {t('links.renamed', { name: link.name, added: link.addAs })}
        </p>
      ) : null}
      <p data-testid="link-kind">
        <strong>{isHttpServer(config) ? t('links.kindHttp') : t('links.kindStdio')}</strong>
      </p>
      <dl className="link-config" data-testid="link-config">
        {isHttpServer(config) ? (
          <>
            <Row label={t('links.url')} testId="link-url" values={[config.url]} />
            <Row label={t('links.headerNames')} values={Object.keys(config.headers ?? {})} />
          </>
        ) : (
          <>
            <Row label={t('links.command')} testId="link-command" values={[config.command]} />
            <Row label={t('links.args')} testId="link-args" values={config.args ?? []} empty={t('links.noArgs')} />
            {config.cwd ? <Row label={t('links.cwd')} values={[config.cwd]} /> : null}
            <Row label={t('links.envNames')} testId="link-env" values={Object.keys(config.env ?? {})} />
            {config.sandbox !== undefined ? (
              <>
                <dt>{t('links.sandbox')}</dt>
                <dd>{config.sandbox ? t('links.sandboxOn') : t('links.sandboxOff')}</dd>
              </>
            ) : null}
          </>
        )}
      </dl>
      <p className="link-warning">{t('links.warning')}</p>
      {link.error !== undefined ? (
        <p className="field-error" role="alert" data-testid="link-error">
          {link.error}
        </p>
      ) : null}
    </>
  );
}

/** One field of the configuration: each value in its own <code>, exactly as the link gave it. */
function Row(props: { label: string; values: readonly string[]; testId?: string; empty?: string }) {
  if (props.values.length === 0 && props.empty === undefined) return null;
  return (
    <>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>
        {props.values.length === 0
          ? props.empty
          : props.values.map((value, index) => (
              <code key={index} className="link-value">
                {value}
              </code>
            ))}
      </dd>
    </>
  );
}
