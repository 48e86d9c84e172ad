// Start-up loads only what it runs (docs/performance.md, "Start-up"): in the BUILT Node entry
// (out/main/cli.js, or $RESOLUTE_CLI) and every chunk a mode loads, pi-ai, pi-agent-core and
// TypeBox are never imported statically — they come with the first run, through pi-runtime.ts's
// dynamic import. A static import anywhere on that path (a value import in the core, say) would
// load them at every start.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, CLI, ensureBuiltCli } from './fixtures/built-cli';

const LAZY = /^(@mariozechner\/pi-ai|@mariozechner\/pi-agent-core|typebox)(\/|$)/;

/** `import … from "x"`, `export … from "x"`, `import "x"`: what loads with the module itself. */
const STATIC = /(?:^|[\n;])\s*(?:import|export)\s*(?:[^;'"()]*?\sfrom\s*)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * Every module file reachable from `entry` (relative imports, static or dynamic; with `staticOnly`,
 * what loads with the entry itself) and what each imports from packages.
 */
function walk(
  entry: string,
  staticOnly = false,
): { files: string[]; staticPackages: Set<string>; dynamicPackages: Set<string> } {
  const files: string[] = [];
  const staticPackages = new Set<string>();
  const dynamicPackages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (files.includes(file)) continue;
    files.push(file);
    const text = readFileSync(file, 'utf8');
    for (const [pattern, packages] of [
      [STATIC, staticPackages],
      [staticOnly ? null : DYNAMIC, dynamicPackages],
    ] as const) {
      if (pattern === null) continue;
      for (const [, specifier] of text.matchAll(pattern)) {
        if (specifier.startsWith('.')) queue.push(join(dirname(file), specifier));
        else packages.add(specifier);
      }
    }
  }
  return { files, staticPackages, dynamicPackages };
}

describe('the built start-up path', () => {
  beforeAll(ensureBuiltCli, BUILD_TIMEOUT_MS);

  it('imports pi-ai, pi-agent-core and TypeBox only dynamically', () => {
    const { files, staticPackages, dynamicPackages } = walk(CLI);
    // The walk reached the modes (so it read the graph) and found the one dynamic import of pi-ai.
    expect(files.some((file) => /rpc-mode/.test(file))).toBe(true);
    expect(staticPackages).toContain('better-sqlite3');
    expect(dynamicPackages).toContain('@mariozechner/pi-ai');
    expect([...staticPackages].filter((name) => LAZY.test(name))).toEqual([]);
  });

  it("loads no package with the entry itself but Node's own: `--help` pays for nothing it does not run", () => {
    const { files, staticPackages } = walk(CLI, true);
    expect(files.length).toBeGreaterThan(0);
    expect([...staticPackages].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });
});
