// Settings → MCP (docs/mcp.md): the servers of `mcp.servers` with their live status (starting,
// connected with N tools, failed with the reason, where its log is and its next attempt, off); for
// each: edit, on/off, remove, retry now, its log, its resources and prompts, "run its tools without
// asking" (tied to its configuration's hash); adding one, importing another app's config file (read
// in the page; the main process validates what is sent), the tool time limit. Changes apply at once.
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { McpImportInput, McpServerConfig, McpSettings } from '../../../../shared/mcp';
import {
  MCP_TIMEOUT_RANGE,
  isHttpServer,
  mcpAlwaysAllowed,
  mcpConfigHash,
  type McpServerStatus,
} from '../../../../shared/mcp-values';
import { useActions, useAppState } from '../../store/app-store';
import { CommitField, SettingsSection } from './fields';
import { McpServerForm } from './McpServerForm';
import { McpRetry, McpServerLog } from './McpServerLog';
import { McpServerCatalog } from './McpServerCatalog';

type Editing = { name: string; config: McpServerConfig } | null | 'new';

export function McpSection({ mcp }: { mcp: McpSettings }) {
  const { t } = useTranslation();
  const statuses = useAppState((s) => s.settings.mcpServers);
  const [editing, setEditing] = useState<Editing>(null);
  const names = Object.keys(mcp.servers);
  return (
    <SettingsSection id="settings-mcp" title={t('settings.sections.mcp')} testId="mcp-section">
      <p className="section-hint">{t('mcp.hint')}</p>
      {names.length === 0 ? (
        <p className="field-hint">{t('mcp.none')}</p>
      ) : (
        <ul className="mcp-list" aria-label={t('mcp.listLabel')}>
          {names.map((name) => (
            <McpServerRow
              key={name}
              name={name}
              mcp={mcp}
              status={statuses.find((s) => s.name === name)}
              onEdit={() => setEditing({ name, config: mcp.servers[name] })}
            />
          ))}
        </ul>
      )}
      {editing ? (
        <McpServerForm editing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : (
        <div className="mcp-actions">
          <button type="button" className="button" data-testid="mcp-add" onClick={() => setEditing('new')}>
            {t('mcp.add')}
          </button>
          <McpImport />
        </div>
      )}
      <div className="field-grid">
        <CommitField
          label={t('mcp.timeout')}
          fieldPath="mcp.toolTimeoutMs"
          testId="mcp-timeout"
          kind="number"
          value={mcp.toolTimeoutMs}
          toPatch={(toolTimeoutMs) => ({ mcp: { toolTimeoutMs } })}
          hint={`${MCP_TIMEOUT_RANGE.min}–${MCP_TIMEOUT_RANGE.max} ms · ${t('mcp.timeoutHint')}`}
        />
      </div>
    </SettingsSection>
  );
}

interface RowProps {
  name: string;
  mcp: McpSettings;
  status: McpServerStatus | undefined;
  onEdit: () => void;
}

function McpServerRow({ name, mcp, status, onEdit }: RowProps) {
  const { t } = useTranslation();
  const actions = useActions();
  const config = mcp.servers[name];
  const enabled = config.enabled !== false;
  const allowed = mcpAlwaysAllowed(mcp, name, '*');
  const where = isHttpServer(config) ? config.url : [config.command, ...(config.args ?? [])].join(' ');
  // The main process sends them masked (docs/mcp.md, "Secrets"): names and masks only.
  const secretMap = isHttpServer(config) ? config.headers : config.env;
  const secrets = Object.entries(secretMap ?? {}).map(([key, value]) => `${key}=${value}`);
  const state = enabled ? (status ?? { name, state: 'starting' as const }) : { name, state: 'disabled' as const };
  const update = (patch: Partial<McpSettings> | Record<string, unknown>) =>
    void actions.updateSettings('mcp.servers', { mcp: patch });
  const [isConfirming, setConfirming] = useState(false);
  return (
    <li className="mcp-row" data-testid="mcp-row" data-server={name}>
      <div className="mcp-row-head">
        <strong className="mcp-name">{name}</strong>
        <span className={`mcp-status mcp-status-${state.state}`} data-testid="mcp-status" role="status">
          {statusText(t, state)}
        </span>
      </div>
      <code className="mcp-where">{where}</code>
      {secrets.length > 0 ? (
        <code className="mcp-where" data-testid="mcp-secrets" title={t('mcp.secretsHint')}>
          {secrets.join('  ')}
        </code>
      ) : null}
      {state.state === 'connected' && state.renamed ? (
        <p className="field-hint" data-testid="mcp-renamed">
          {t('mcp.renamed', { list: state.renamed.map((r) => `${r.tool} → ${r.name}`).join(', ') })}
        </p>
      ) : null}
      {state.state === 'failed' ? (
        <>
          <p className="field-hint">{t('mcp.logHint', { name })}</p>
          <McpRetry status={state} />
        </>
      ) : null}
      <div className="mcp-actions">
        <button type="button" className="button button-small" data-testid="mcp-edit" onClick={onEdit}>
          {t('mcp.edit')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="mcp-toggle"
          onClick={() => update({ servers: { [name]: { enabled: enabled ? false : null } } })}
        >
          {enabled ? t('mcp.disable') : t('mcp.enable')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="mcp-remove"
          aria-expanded={isConfirming}
          onClick={() => setConfirming(true)}
        >
          {t('mcp.remove')}
        </button>
        <label className="toggle" title={t('mcp.alwaysAllowHint')}>
          <input
            type="checkbox"
            data-testid="mcp-always-allow"
            checked={allowed}
            onChange={(event) =>
              update({
                allowed: { [name]: event.target.checked ? { config: mcpConfigHash(config), tools: ['*'] } : null },
              })
            }
          />
          {t('mcp.alwaysAllow')}
        </label>
      </div>
      {isConfirming ? (
        <McpRemoveConfirm
          name={name}
          onRemove={() => update({ servers: { [name]: null }, allowed: { [name]: null } })}
          onKeep={() => setConfirming(false)}
        />
      ) : null}
      {state.state === 'connected' && !allowed ? (
        <McpToolAllowList name={name} mcp={mcp} tools={state.toolNames} descriptions={state.toolDescriptions ?? {}} />
      ) : null}
      {state.state === 'connected' ? <McpServerCatalog name={name} /> : null}
      <McpServerLog name={name} />
    </li>
  );
}

/** Remove asks once: the entry and its "run without asking" choices go, with no undo. */
function McpRemoveConfirm({ name, onRemove, onKeep }: { name: string; onRemove: () => void; onKeep: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mcp-remove-confirm" role="group" aria-label={t('mcp.removeConfirm', { name })}>
      <p className="field-hint" data-testid="mcp-remove-question">
        {t('mcp.removeConfirm', { name })}
      </p>
      <div className="mcp-actions">
        <button
          type="button"
          className="button button-small button-danger"
          data-testid="mcp-remove-yes"
          onClick={onRemove}
        >
          {t('mcp.remove')}
        </button>
        <button type="button" className="button button-small" data-testid="mcp-remove-keep" autoFocus onClick={onKeep}>
          {t('mcp.removeKeep')}
        </button>
      </div>
    </div>
  );
}

/** Single tools of a connected server marked as run without asking (mcp.allowed.<server>.tools), each with what it does. */
function McpToolAllowList(props: {
  name: string;
  mcp: McpSettings;
  tools: string[];
  descriptions: Record<string, string>;
}) {
  const { name, mcp, tools, descriptions } = props;
  const { t } = useTranslation();
  const actions = useActions();
  const config = mcp.servers[name];
  const current = mcp.allowed[name];
  const chosen = current && current.config === mcpConfigHash(config) ? current.tools : [];
  const set = (tool: string, on: boolean) => {
    const next = on ? [...chosen, tool] : chosen.filter((x) => x !== tool);
    const allowed = next.length ? { config: mcpConfigHash(config), tools: next } : null;
    void actions.updateSettings('mcp.servers', { mcp: { allowed: { [name]: allowed } } });
  };
  return (
    <details className="mcp-tools" data-testid="mcp-tools">
      <summary>{t('mcp.tools', { count: tools.length })}</summary>
      <ul className="mcp-tool-list">
        {tools.map((tool) => (
          <li key={tool}>
            <label className="toggle">
              <input
                type="checkbox"
                data-testid="mcp-tool-allow"
                checked={chosen.includes(tool)}
                onChange={(event) => set(tool, event.target.checked)}
              />
              <code>{tool}</code> {t('mcp.toolAllow')}
            </label>
            {descriptions[tool] ? (
              <p className="field-hint mcp-tool-description" data-testid="mcp-tool-description">
                {descriptions[tool]}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </details>
  );
}

function statusText(t: TFunction, status: McpServerStatus): string {
  switch (status.state) {
    case 'starting':
      return t('mcp.starting');
    case 'connected':
      return t('mcp.connected', { count: status.tools });
    case 'failed':
      return t('mcp.failed', { reason: status.reason });
    case 'disabled':
      return t('mcp.disabled');
  }
}

/** What the last import said: kept as data, so it reads in the language the window has now. */
type ImportResult =
  | { ok: true; count: number; skipped: string[]; renamed: { from: string; to: string }[] }
  | { ok: false; error: string }
  | null;

/** A file whose entries use VS Code's `${input:id}`: its text, and the values it asks for. */
type Asking = { text: string; inputs: McpImportInput[] } | null;

/** Pick a config file; its servers are added (a server of the same name is replaced). */
function McpImport() {
  const { t } = useTranslation();
  const actions = useActions();
  const input = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState<ImportResult>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const take = async (text: string, values?: Record<string, string>): Promise<void> => {
    // The schemas (and zod) load here, on the first import, not with the window (docs/architecture.md).
    const { importMcpConfig } = await import('../../../../shared/mcp');
    const result = importMcpConfig(text, values);
    if (!result.ok) return setSaid(result);
    // VS Code's inputs are asked for first; their values go into the entries, then to the credential store.
    if (!values && result.inputs.length > 0) return setAsking({ text, inputs: result.inputs });
    setAsking(null);
    const count = Object.keys(result.servers).length;
    const ok = count === 0 || (await actions.updateSettings('mcp.servers', { mcp: { servers: result.servers } }));
    setSaid(ok ? { ok: true, count, skipped: result.skipped, renamed: result.renamed } : null);
  };
  return (
    <>
      <button type="button" className="button" data-testid="mcp-import" onClick={() => input.current?.click()}>
        {t('mcp.import')}
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="mcp-import-file"
        aria-label={t('mcp.importHint')}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void file.text().then((text) => take(text));
        }}
      />
      {asking ? (
        <McpImportInputs
          inputs={asking.inputs}
          onImport={(values) => void take(asking.text, values)}
          onCancel={() => setAsking(null)}
        />
      ) : null}
      <span className="field-hint" role="status" data-testid="mcp-import-result">
        {importText(t, said)}
      </span>
    </>
  );
}

/** One field per value the file asks for; a `"password": true` one is typed hidden. */
function McpImportInputs(props: {
  inputs: McpImportInput[];
  onImport: (values: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      className="mcp-form"
      data-testid="mcp-import-inputs"
      aria-label={t('mcp.inputsTitle')}
      onSubmit={(event) => {
        event.preventDefault();
        props.onImport(values);
      }}
    >
      <p className="field-hint">{t('mcp.inputsTitle')}</p>
      {props.inputs.map((item) => (
        <label key={item.id} className="field" htmlFor={`${id}-${item.id}`}>
          <span className="field-label">{item.description}</span>
          <input
            id={`${id}-${item.id}`}
            className="input"
            data-testid="mcp-import-input"
            type={item.password ? 'password' : 'text'}
            autoComplete="off"
            value={values[item.id] ?? ''}
            onChange={(event) => setValues({ ...values, [item.id]: event.target.value })}
          />
        </label>
      ))}
      <div className="mcp-actions">
        <button type="submit" className="button button-primary" data-testid="mcp-import-inputs-save">
          {t('mcp.inputsImport')}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          {t('mcp.cancel')}
        </button>
      </div>
    </form>
  );
}

function importText(t: TFunction, said: ImportResult): string {
  if (!said) return t('mcp.importHint');
  if (!said.ok) return t('mcp.importFailed', { message: said.error });
  const skipped = said.skipped.length ? ` ${t('mcp.skipped', { list: said.skipped.join('; ') })}` : '';
  const list = said.renamed.map((r) => `“${r.from}” → ${r.to}`).join(', ');
  const renamed = list ? ` ${t('mcp.importRenamed', { list })}` : '';
  return `${t('mcp.imported', { count: said.count })}${renamed}${skipped}`;
}
