// The import-circle check of `npm run lint` (dpdm, configured in dpdm.config.json): with the
// options the lint uses, it reports a circle that value imports close, leaves out type-only imports
// (`import type`, `import { type A }`, `export type … from`) and lazy import(). That the app has
// none is the lint's own run over config.files (the nine-file circle through the session and the
// retry wing is gone: issue 41); running it here again would double its time in `npm test`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseCircular, parseDependencyTree, type ParseOptions } from 'dpdm';
import { afterEach, describe, expect, it } from 'vitest';

/** The lint's own settings, so the test checks what `npm run lint` runs. */
const config = JSON.parse(readFileSync(join(process.cwd(), 'dpdm.config.json'), 'utf8')) as {
  transform: boolean;
  skipDynamicImports: string;
};
const options: Partial<ParseOptions> = { transform: config.transform };
const skipDynamic = config.skipDynamicImports === 'circular';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** The circles among files written to a fresh folder, each as its file names. */
async function circlesOf(files: Record<string, string>): Promise<string[][]> {
  dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const tree = await parseDependencyTree('**/*.ts', { ...options, context: dir, cwd: dir });
  return parseCircular(tree, skipDynamic).map((circle) => circle.map((file) => basename(file)).sort());
}

describe('import-cycles', () => {
  it('reports a circle of value imports, through any number of files', async () => {
    const circles = await circlesOf({
      'a.ts': "import { b } from './b';\nexport const a = () => b;",
      'b.ts': "import { c } from './c';\nexport const b = () => c;",
      'c.ts': "export { a as c } from './a';",
      'd.ts': "import { a } from './a';\nexport const d = a;",
    });
    expect(circles).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('counts an import that brings a value beside a type, and a side-effect import', async () => {
    const circles = await circlesOf({
      'a.ts': "import { type B, b } from './b';\nexport const a: B = b;",
      'b.ts': "import './a';\nexport type B = string;\nexport const b = '';",
    });
    expect(circles).toEqual([['a.ts', 'b.ts']]);
  });

  it('leaves out type-only imports, and lazy import()', async () => {
    const circles = await circlesOf({
      'c.ts': "import { type D } from './d';\nexport type C = D;\nexport const c = 1;",
      'd.ts': "import type { C } from './c';\nexport type D = C | number;\nexport const d = 2;",
      'e.ts': "export const e = () => import('./f');",
      'f.ts': "import { e } from './e';\nexport const f = e;",
      'g.ts': "export type { H } from './h';\nexport type G = 1;\nexport const g = 3;",
      'h.ts': "import type { G } from './g';\nexport type H = G;\nexport const h = 4;",
      'i.ts': "import { j } from './j';\nexport type I = string;\nexport const i = j;",
      'j.ts': "import type { I } from './i';\nexport const j: I = '';",
    });
    expect(circles).toEqual([]);
  });
});
