// Settings → MCP, under a connected server's row (docs/mcp.md): a "Resources and prompts"
// disclosure that fetches what the server offers besides tools (mcp.catalog) when opened — its
// resources, resource templates and prompts with their arguments — read-only: none of them is
// offered to the model yet. Used by McpSection.
import { useTranslation } from 'react-i18next';
import { MCP_CATALOG_LIMIT, type McpCatalog } from '../../../../shared/mcp-values';
import { useActions } from '../../store/app-store';
import { useLoadOnOpen } from './McpServerLog';

interface Entry {
  key: string;
  code: string;
  text?: string;
}

export function McpServerCatalog({ name }: { name: string }) {
  const { t } = useTranslation();
  const actions = useActions();
  const { value: catalog, onToggle } = useLoadOnOpen<McpCatalog>(() => actions.call('mcp.catalog', { name }));
  return (
    <details className="mcp-catalog" data-testid="mcp-catalog" onToggle={onToggle}>
      <summary>{t('mcp.catalog')}</summary>
      {catalog ? (
        <>
          <p className="field-hint">{t('mcp.catalogHint')}</p>
          <CatalogList
            testId="mcp-resources"
            title={t('mcp.resources', { count: catalog.resources.length })}
            entries={catalog.resources.map((r) => ({ key: r.uri, code: r.uri, text: join(r.name, r.description) }))}
          />
          {catalog.resourceTemplates.length > 0 ? (
            <CatalogList
              testId="mcp-resource-templates"
              title={t('mcp.templates', { count: catalog.resourceTemplates.length })}
              entries={catalog.resourceTemplates.map((r) => ({
                key: r.uriTemplate,
                code: r.uriTemplate,
                text: join(r.name, r.description),
              }))}
            />
          ) : null}
          <CatalogList
            testId="mcp-prompts"
            title={t('mcp.prompts', { count: catalog.prompts.length })}
            entries={catalog.prompts.map((p) => ({
              key: p.name,
              code: `${p.name}(${p.arguments.map((a) => (a.required ? `${a.name}*` : a.name)).join(', ')})`,
              text: p.description,
            }))}
          />
          {catalog.truncated ? <p className="field-hint">{t('mcp.catalogCut', { limit: MCP_CATALOG_LIMIT })}</p> : null}
        </>
      ) : null}
    </details>
  );
}

function CatalogList({ title, entries, testId }: { title: string; entries: Entry[]; testId: string }) {
  return (
    <>
      <p className="mcp-catalog-title">{title}</p>
      {entries.length > 0 ? (
        <ul className="mcp-catalog-list" data-testid={testId} tabIndex={0}>
          {entries.map((entry) => (
            <li key={entry.key}>
              <code>{entry.code}</code>
              {entry.text ? <span className="field-hint"> — {entry.text}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function join(name: string, description: string | undefined): string {
  return description ? `${name}: ${description}` : name;
}
