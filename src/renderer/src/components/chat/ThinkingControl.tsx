// The chat header's thinking control (docs/thinking-and-context.md): off / minimal / low / medium
// / high, as pi-ai's levels, offered only for a model whose reasoning flag says it thinks. A choice
// is the model's from then on (agent.thinkingLevels) and the level for models with none of their
// own (agent.thinkingLevel); the main process says which level requests use (model.thinkingLevel).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelInfo } from '../../../../shared/events';
import { THINKING_LEVELS, thinkingKey, type ThinkingLevelSetting } from '../../../../shared/settings-values';
import type { Actions } from '../../store/actions';
import { useActions, useAppState } from '../../store/app-store';

/** Make `level` the model's from now on and the level for models with none of their own (also the palette's). */
export function chooseThinkingLevel(actions: Actions, model: ModelInfo, level: ThinkingLevelSetting): void {
  const patch = { agent: { thinkingLevel: level, thinkingLevels: { [thinkingKey(model.provider, model.id)]: level } } };
  void actions.updateSettings('agent.thinkingLevel', patch);
}

export function ThinkingControl({ model }: { model: ModelInfo }) {
  const { t } = useTranslation();
  const id = useId();
  const actions = useActions();
  const error = useAppState((s) => s.settings.fieldErrors['agent.thinkingLevel']);
  if (!model.reasoning) return null;
  const level = model.thinkingLevel ?? 'off';
  return (
    <div className="thinking-control">
      <label htmlFor={id}>{t('thinking.label')}</label>
      <select
        id={id}
        className="input"
        data-testid="thinking-level"
        value={level}
        title={error ?? t('thinking.hint')}
        aria-invalid={error ? true : undefined}
        onChange={(event) => chooseThinkingLevel(actions, model, event.target.value as ThinkingLevelSetting)}
      >
        {THINKING_LEVELS.map((value) => (
          <option key={value} value={value}>
            {t(`thinking.levels.${value}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
