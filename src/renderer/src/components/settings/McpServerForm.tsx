// Adding or editing one MCP server in Settings → MCP (docs/mcp.md, "Configuration"): its name and
// its entry as JSON in Claude desktop's shape. Saving replaces the whole entry (fields left out are
// removed) and a rename moves it; the main process validates it and a refusal shows under the form.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerConfig } from '../../../../shared/mcp';
import { MCP_SERVER_NAME } from '../../../../shared/mcp-values';
import { useActions } from '../../store/app-store';
import { FieldError } from './fields';

interface Props {
  /** The server being edited, or null to add one. */
  editing: { name: string; config: McpServerConfig } | null;
  onDone: () => void;
}

const EXAMPLE = '{\n  "command": "npx",\n  "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]\n}';

export function McpServerForm({ editing, onDone }: Props) {
  const { t } = useTranslation();
  const actions = useActions();
  const id = useId();
  const [name, setName] = useState(editing?.name ?? '');
  const [json, setJson] = useState(editing ? JSON.stringify(editing.config, null, 2) : EXAMPLE);
  const [problem, setProblem] = useState<string | null>(null);

  const save = async (): Promise<void> => {
    if (!MCP_SERVER_NAME.test(name)) return setProblem(t('mcp.badName'));
    let entry: unknown;
    try {
      entry = JSON.parse(json);
    } catch (error) {
      return setProblem(t('mcp.badJson', { message: error instanceof Error ? error.message : String(error) }));
    }
    setProblem(null);
    // A patch merges into the settings: every field of the old entry not in the new one is cleared.
    const cleared = Object.fromEntries(Object.keys(editing?.config ?? {}).map((key) => [key, null]));
    const replacing = editing?.name === name;
    const servers: Record<string, unknown> = { [name]: replacing ? { ...cleared, ...(entry as object) } : entry };
    if (editing && !replacing) servers[editing.name] = null;
    if (await actions.updateSettings('mcp.servers', { mcp: { servers } })) onDone();
  };

  return (
    <form
      className="mcp-form"
      data-testid="mcp-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {/* The label holds the words only: a hint inside it would join the field's name. */}
      <div className="field field-textarea">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('mcp.name')}
        </label>
        <input
          id={`${id}-name`}
          className="input"
          data-testid="mcp-form-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-describedby={`${id}-name-hint`}
        />
        <span className="field-hint" id={`${id}-name-hint`}>
          {t('mcp.nameHint')}
        </span>
      </div>
      <div className="field field-textarea">
        <label className="field-label" htmlFor={`${id}-entry`}>
          {t('mcp.entry')}
        </label>
        <textarea
          id={`${id}-entry`}
          className="input mcp-entry"
          data-testid="mcp-form-entry"
          rows={6}
          spellCheck={false}
          value={json}
          onChange={(event) => setJson(event.target.value)}
          aria-describedby={`${id}-entry-hint`}
        />
        <span className="field-hint" id={`${id}-entry-hint`}>
          {t('mcp.entryHint')} {t('mcp.secretsHint')}
        </span>
      </div>
      {problem ? (
        <p className="field-error" role="alert" data-testid="mcp-form-error">
          {problem}
        </p>
      ) : null}
      <FieldError fieldPath="mcp.servers" label={t('mcp.entry')} testId="mcp-form" errorId={`${id}-error`} />
      <div className="mcp-actions">
        <button type="submit" className="button button-primary" data-testid="mcp-form-save">
          {t('mcp.save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('mcp.cancel')}
        </button>
      </div>
    </form>
  );
}
