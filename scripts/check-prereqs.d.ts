// Types for scripts/check-prereqs.js (used by its test).
export interface Missing {
  what: string;
  apt: string;
}
export const APT_COMMAND: string;
export function onPath(name: string, path: string | undefined): boolean;
export function missingPrereqs(options: {
  path?: string;
  platform?: NodeJS.Platform;
  chromiumPaths: (string | undefined)[];
}): Missing[];
export function prereqMessage(missing: Missing[], platform?: NodeJS.Platform): string;
/** Why better-sqlite3 cannot open a database, as a message to show; undefined when it can. */
export function sqliteProblem(load?: () => new (file: string) => { close(): void }): string | undefined;
