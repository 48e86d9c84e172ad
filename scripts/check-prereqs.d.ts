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
