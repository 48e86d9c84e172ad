// The window's first chunk loads no schema library (issue 31, "The first window"): follows every
// static value import from the renderer's entry (src/renderer/src/main.tsx) through our own files
// — not `import type`, not `import()` — and fails if one reaches zod. The settings schema, MCP's
// config import and the like are loaded by `import()` when first needed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY = resolve('src/renderer/src/main.tsx');

function resolveLocal(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (existsSync(candidate)) return candidate;
  return null;
}

/** The modules a file loads when it is evaluated: its value imports and re-exports. */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        !clause.name &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Each package the entry reaches, with the chain of files that leads to it. */
function packagesReached(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>([entry]);
  const queue: { file: string; chain: string[] }[] = [{ file: entry, chain: [relative('.', entry)] }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    for (const specifier of staticImports(next.file)) {
      if (!specifier.startsWith('.')) {
        if (!packages.has(specifier)) packages.set(specifier, next.chain);
        continue;
      }
      const target = resolveLocal(next.file, specifier);
      if (!target || seen.has(target)) continue;
      seen.add(target);
      queue.push({ file: target, chain: [...next.chain, relative('.', target)] });
    }
  }
  return packages;
}

describe("the renderer's first chunk", () => {
  it('reaches react and i18next but not zod', () => {
    const packages = packagesReached(ENTRY);
    expect(packages.has('react-dom/client')).toBe(true);
    expect(packages.has('i18next')).toBe(true);
    expect(packages.get('zod')).toBeUndefined();
  });
});
