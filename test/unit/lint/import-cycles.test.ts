// The import-circle check of `npm run lint` (scripts/import-cycles.js): it reports a circle that
// takes a value import, leaves out circles of type-only imports and lazy import(), and finds none
// in the checked folders of the app but the known ones (the circle through the session and the
// retry wing, nine files, is gone: issue 41).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKED, findCycles, importGraph, sourceFiles, valueImports } from '../../../scripts/import-cycles.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** The circles among files written to a fresh folder, each as its sorted file names. */
function circlesOf(files: Record<string, string>): string[][] {
  dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return findCycles(importGraph(sourceFiles(dir))).map((cycle) => cycle.map((file) => basename(file)));
}

describe('import-cycles', () => {
  it('reports a circle of value imports, through any number of files', () => {
    const circles = circlesOf({
      'a.ts': "import { b } from './b';\nexport const a = () => b;",
      'b.ts': "import { c } from './c';\nexport const b = () => c;",
      'c.ts': "export { a as c } from './a';",
      'd.ts': "import { a } from './a';\nexport const d = a;",
    });
    expect(circles).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('reports a circle that a value import closes, even when the way back is types only', () => {
    const circles = circlesOf({
      'a.ts': "import { b } from './b';\nexport type A = string;\nexport const a = b;",
      'b.ts': "import type { A } from './a';\nexport const b: A = '';",
    });
    expect(circles).toEqual([['a.ts', 'b.ts']]);
  });

  it('leaves out circles of type-only imports, and lazy import()', () => {
    const circles = circlesOf({
      'c.ts': "import { type D } from './d';\nexport type C = D;",
      'd.ts': "import type { C } from './c';\nexport type D = C | number;",
      'e.ts': "export const e = () => import('./f');",
      'f.ts': "import { e } from './e';\nexport const f = e;",
      'g.ts': "export type { H } from './h';\nexport type G = 1;",
      'h.ts': "import type { G } from './g';\nexport type H = G;",
    });
    expect(circles).toEqual([]);
  });

  it('counts an import that brings a value beside a type', () => {
    expect(valueImports('x.ts', "import { type A, b } from './y';")).toEqual(['./y']);
    expect(valueImports('x.ts', "import type { A } from './y';\nimport { type B } from './z';")).toEqual([]);
    expect(valueImports('x.ts', "import './side-effect';")).toEqual(['./side-effect']);
  });

  it('finds no circle in the app', () => {
    const files = CHECKED.flatMap((folder) => sourceFiles(join(process.cwd(), folder)));
    expect(files.length).toBeGreaterThan(100);
    const circles = findCycles(importGraph(files)).map((cycle) => cycle.map((file) => relative(process.cwd(), file)));
    expect(circles).toEqual([]);
  });
});
