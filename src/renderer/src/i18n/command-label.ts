// An app command's label (`commands.<id>`, from the declarations in src/shared/app-commands.ts),
// for the palette and the Settings shortcut list; a family's label with its variant's params.
import type { TFunction } from 'i18next';
import type { AppCommandId } from '../../../shared/app-commands';

export function commandLabel(t: TFunction, id: AppCommandId, params?: Record<string, string>): string {
  // A key built from the id is more than i18next's types can check; the resources' parity test
  // checks every language's placeholders instead.
  const translate = t as unknown as (key: string, options?: Record<string, string>) => string;
  return translate(`commands.${id}`, params);
}
