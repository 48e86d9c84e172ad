// The decision table as the Settings pane shows it: one row per category with its action, max
// attempts, backoff, wait and jitter, read from the shared table (describeTable, the same rows the
// main process decides by; docs/retry-policy.md). Retry rows take per-row overrides
// (settings.retry.policy); an empty override shows the value it inherits as "inherited (N)".
import { useTranslation } from 'react-i18next';
import type { RetryableCategory } from '../../../../shared/error-category';
import { describeTable, type BackoffKind, type DescribedRow } from '../../../../shared/retry-policy/decision-table';
import type { RetrySettings, RowOverride } from '../../../../shared/settings';
import { useActions } from '../../store/app-store';
import { CommitField, SelectField, SettingsSection } from './fields';

type Field = keyof RowOverride;

const overridePatch = (category: string, field: Field, value: unknown) => ({
  retry: { policy: { [category]: { [field]: value } } },
});

export function DecisionTable({ retry }: { retry: RetrySettings }) {
  const { t } = useTranslation();
  const rows = describeTable(retry);
  return (
    <SettingsSection id="settings-table" title={t('settings.sections.table')}>
      <p className="section-hint">{t('settings.tableHint')}</p>
      <div className="table-scroll">
        <table className="decision-table" data-testid="decision-table" aria-labelledby="settings-table-title">
          <thead>
            <tr>
              <th scope="col">{t('settings.column.category')}</th>
              <th scope="col">{t('settings.column.action')}</th>
              <th scope="col">{t('settings.column.maxAttempts')}</th>
              <th scope="col">{t('settings.column.backoff')}</th>
              <th scope="col">{t('settings.column.delay')}</th>
              <th scope="col">{t('settings.column.jitter')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <DecisionRow key={row.category} row={row} />
            ))}
          </tbody>
        </table>
      </div>
    </SettingsSection>
  );
}

function DecisionRow({ row }: { row: DescribedRow }) {
  const { t } = useTranslation();
  const category = t(`category.${row.category}`);
  return (
    <tr data-testid={`decision-row-${row.category}`} data-action={row.action}>
      <th scope="row">{category}</th>
      <td>{t(`settings.action.${row.action}`)}</td>
      {row.isOverridable ? (
        <OverrideCells row={row} category={row.category as RetryableCategory} categoryLabel={category} />
      ) : (
        <>
          {/* A row that stops at once makes no attempts: nothing to set, as in the other cells. */}
          <td>{t('settings.none')}</td>
          <td>{t('settings.none')}</td>
          <td>{t('settings.none')}</td>
          <td>{t('settings.none')}</td>
        </>
      )}
    </tr>
  );
}

function OverrideCells({
  row,
  category,
  categoryLabel,
}: {
  row: DescribedRow;
  category: RetryableCategory;
  categoryLabel: string;
}) {
  const { t } = useTranslation();
  const actions = useActions();
  const label = (column: 'maxAttempts' | 'backoff' | 'delay' | 'jitter') =>
    t('settings.overrideLabel', { field: t(`settings.column.${column}`), category: categoryLabel });
  const inheritedHint = (column: string, value: string | number) => (
    <span className="inherited" data-testid={`inherited-${column}-${category}`}>
      {t('settings.inherited', { value })}
    </span>
  );
  const select = (field: 'backoff' | 'jitter', value: string) => {
    void actions.updateSettings(
      `retry.policy.${category}.${field}`,
      overridePatch(category, field, decodeChoice(field, value)),
    );
  };
  const backoffName = (kind: BackoffKind) => (kind === 'none' ? t('settings.none') : t(`settings.backoff.${kind}`));
  const { override, inherited } = row;
  return (
    <>
      <td>
        <CommitField
          label={label('maxAttempts')}
          isLabelHidden
          fieldPath={`retry.policy.${category}.maxAttempts`}
          testId={`override-max-attempts-${category}`}
          kind="number"
          isClearable
          value={override.maxAttempts}
          toPatch={(value) => overridePatch(category, 'maxAttempts', value)}
          suffix={override.maxAttempts === undefined ? inheritedHint('max-attempts', inherited.maxAttempts) : null}
        />
      </td>
      <td>
        <SelectField
          label={label('backoff')}
          isLabelHidden
          fieldPath={`retry.policy.${category}.backoff`}
          testId={`override-backoff-${category}`}
          value={override.backoff ?? 'inherit'}
          options={[
            { value: 'inherit', label: t('settings.inheritOption', { value: backoffName(inherited.backoff) }) },
            { value: 'exponential', label: t('settings.backoff.exponential') },
            { value: 'linear', label: t('settings.backoff.linear') },
          ]}
          onSelect={(value) => select('backoff', value)}
        />
      </td>
      <td>
        {row.backoff !== 'linear' ? (
          t('settings.none')
        ) : (
          <CommitField
            label={label('delay')}
            isLabelHidden
            fieldPath={`retry.policy.${category}.delayMs`}
            testId={`override-delay-${category}`}
            kind="number"
            isClearable
            value={override.delayMs}
            toPatch={(value) => overridePatch(category, 'delayMs', value)}
            suffix={override.delayMs === undefined ? inheritedHint('delay', inherited.delayMs) : null}
          />
        )}
      </td>
      <td>
        <SelectField
          label={label('jitter')}
          isLabelHidden
          fieldPath={`retry.policy.${category}.jitter`}
          testId={`override-jitter-${category}`}
          value={override.jitter === undefined ? 'inherit' : override.jitter ? 'on' : 'off'}
          options={[
            {
              value: 'inherit',
              label: t('settings.inheritOption', {
                value: inherited.jitter ? t('settings.on') : t('settings.off'),
              }),
            },
            { value: 'on', label: t('settings.on') },
            { value: 'off', label: t('settings.off') },
          ]}
          onSelect={(value) => select('jitter', value)}
        />
      </td>
    </>
  );
}

/** "inherit" clears the override (null removes the key in a settings patch). */
function decodeChoice(field: 'backoff' | 'jitter', value: string): unknown {
  if (value === 'inherit') return null;
  return field === 'jitter' ? value === 'on' : value;
}
