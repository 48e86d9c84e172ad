// Benchmark: find and grep on a large workspace. Makes N files (default 50 000) in nested folders
// and times the find and grep tools (ripgrep, as the tools run it) against a baseline measured in
// the same run: a plain Node walk of the same tree (readdirSync) that lists the files for `find`
// and reads each one and searches it for `grep`. Prints ms for each and the ratios.
// Run: npx tsx bench/tools-search.ts [files]
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runFind } from '../src/main/node/tools/find-tool';
import { runGrep } from '../src/main/node/tools/grep-tool';

const FILES = Number(process.argv[2] ?? 50_000);
const PER_DIR = 100;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-bench-search-')));

let made = 0;
for (let d = 0; made < FILES; d += 1) {
  const dir = join(root, `pkg${Math.floor(d / 10)}`, `mod${d}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < PER_DIR && made < FILES; f += 1, made += 1) {
    const marker = made % 5000 === 0 ? 'NEEDLE_42' : 'hay';
    writeFileSync(join(dir, `file${f}.${f % 3 === 0 ? 'ts' : 'txt'}`), `line one\n${marker} in file ${made}\n`);
  }
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

const [walkFindMs, tsFiles] = await time(() => {
  const all: string[] = [];
  walk(root, all);
  return all.filter((p) => p.endsWith('/file99.ts')).map((p) => relative(root, p));
});
// One file per folder matches: few enough results that the output caps do not cut them.
const [findMs, found] = await time(() => runFind(root, { pattern: 'file99.ts', limit: 100_000 }));
const [walkGrepMs, walkHits] = await time(() => {
  const all: string[] = [];
  walk(root, all);
  return all.filter((p) => readFileSync(p, 'utf8').includes('NEEDLE_42')).length;
});
const [grepMs, grepped] = await time(() => runGrep(root, { pattern: 'NEEDLE_\\d+', limit: 1000 }));
rmSync(root, { recursive: true, force: true });

const grepHits = grepped.text.split('\n').filter((l) => l.includes('NEEDLE_42')).length;
console.log(`files: ${FILES}`);
console.log(
  `find 'file99.ts': ripgrep ${findMs.toFixed(0)} ms (${found.text.split('\n').length} paths) vs Node walk ${walkFindMs.toFixed(0)} ms (${tsFiles.length} paths), ratio ${(findMs / walkFindMs).toFixed(2)}×`,
);
console.log(
  `grep NEEDLE: ripgrep ${grepMs.toFixed(0)} ms (${grepHits} matches) vs Node walk+read ${walkGrepMs.toFixed(0)} ms (${walkHits} files), ratio ${(grepMs / walkGrepMs).toFixed(2)}×`,
);
