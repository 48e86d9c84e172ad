// The window's check of a settings change before it shows it (actions.ts, applyOptimistic): the
// full schema (shared/settings.ts, with zod) once it is loaded — when the window is first idle
// (main.tsx), not with the first chunk — and before that the merge alone: the main process
// validates every patch, and a refused one is undone with its field's error.
import type { Settings } from '../../../shared/settings';
import { mergeSettings, type ValidationResult } from '../../../shared/settings-values';

type Check = (current: Settings, patch: unknown) => ValidationResult<Settings>;

let check: Check | null = null;
let loading: Promise<void> | null = null;

/** Load the schema in the background; a failed load is tried again on the next call. */
export function preloadSettingsCheck(): Promise<void> {
  loading ??= import('../../../shared/settings').then(
    (module) => {
      check = module.applySettingsPatch;
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

/** The settings with the patch applied, refused when the schema (once loaded) says a value is bad. */
export function patchedSettings(current: Settings, patch: Record<string, unknown>): ValidationResult<Settings> {
  if (check) return check(current, patch);
  void preloadSettingsCheck();
  return { ok: true, value: mergeSettings(current, patch) as Settings };
}
