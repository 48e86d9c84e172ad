// Finds import circles among the app's own source files (docs/architecture.md, "The lint rule"): a
// file that, through its imports, ends up importing itself. A circle made of type-only imports
// (`import type`, `import { type A }`, `export type … from`) alone is allowed — it runs nothing and
// says only that two files share types; one that takes a single value import is not. Lazy
// `import()` is left out. Written on the TypeScript compiler API (already a dependency)
// rather than adding madge, dpdm or eslint-plugin-import. Run by `npm run lint`, which fails on any
// circle; test/unit/lint/import-cycles.test.ts proves it finds one.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(?:ts|tsx)$/;

/** Every .ts/.tsx file under `dir`, declarations excluded. */
export function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** A named list whose every element says `type` carries types only. */
const allTypes = (elements) => elements.length > 0 && elements.every((element) => element.isTypeOnly);

/** The specifiers a file imports for their values (what loading it runs). */
export function valueImports(fileName, text) {
  return imports(fileName, text)
    .filter((entry) => !entry.typesOnly)
    .map((entry) => entry.specifier);
}

/** Every static import and re-export of a file: its specifier, and whether it brings types only. */
export function imports(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typesOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && bindings && ts.isNamedImports(bindings) && allTypes(bindings.elements));
      found.push({ specifier: statement.moduleSpecifier.text, typesOnly: Boolean(typesOnly) });
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const clause = statement.exportClause;
      const typesOnly = statement.isTypeOnly || (clause && ts.isNamedExports(clause) && allTypes(clause.elements));
      found.push({ specifier: statement.moduleSpecifier.text, typesOnly: Boolean(typesOnly) });
    }
  }
  return found;
}

const OPTIONS = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
};

/**
 * The import graph among `files`: each file to the files of `files` it imports, each marked
 * 'value' (at least one import of it runs code or brings a value) or 'type'.
 */
export function importGraph(files, host = ts.sys) {
  const known = new Set(files.map((file) => resolve(file)));
  const graph = new Map();
  for (const file of known) {
    const targets = new Map();
    for (const { specifier, typesOnly } of imports(file, host.readFile(file) ?? '')) {
      const resolved = ts.resolveModuleName(specifier, file, OPTIONS, host).resolvedModule;
      const target = resolved && resolve(resolved.resolvedFileName);
      if (!target || !known.has(target)) continue;
      if (!typesOnly || !targets.has(target)) targets.set(target, typesOnly ? 'type' : 'value');
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The circles that are not type-only: the strongly connected parts of the graph (Tarjan) that hold
 * a value import between two of their files — every such import lies on a circle of the part.
 */
export function findCycles(graph) {
  return stronglyConnected(graph).filter((part) => {
    const members = new Set(part);
    return part.some((file) => [...graph.get(file)].some(([to, kind]) => kind === 'value' && members.has(to)));
  });
}

/** The strongly connected parts of two files or more, and files that import themselves. */
function stronglyConnected(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
    }
    if (low.get(node) !== index.get(node)) return;
    const part = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || graph.get(node)?.has(node)) cycles.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The folders checked: every process's code. */
export const CHECKED = ['src/main', 'src/shared', 'src/preload', 'src/renderer/src'];

function main() {
  const root = process.cwd();
  const cycles = findCycles(importGraph(CHECKED.flatMap((dir) => sourceFiles(join(root, dir))))).map((cycle) =>
    cycle.map((file) => relative(root, file)),
  );
  if (cycles.length === 0) {
    console.log(`import-cycles: no import circle in ${CHECKED.join(', ')}`);
    return;
  }
  console.error(`import-cycles: ${cycles.length} import circle(s) that are not type-only:`);
  for (const cycle of cycles) console.error(`  - ${cycle.join(', ')}`);
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
