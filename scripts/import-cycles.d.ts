// Types for scripts/import-cycles.js (used by its test).
export const CHECKED: string[];
export function sourceFiles(dir: string): string[];
export function valueImports(fileName: string, text: string): string[];
export function imports(fileName: string, text: string): { specifier: string; typesOnly: boolean }[];
export function importGraph(
  files: string[],
  host?: { readFile(path: string): string | undefined; fileExists(path: string): boolean },
): Map<string, Map<string, 'value' | 'type'>>;
export function findCycles(graph: Map<string, Map<string, 'value' | 'type'>>): string[][];
