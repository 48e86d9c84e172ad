// What a write killed mid-way leaves (issue 40, item 16; src/main/node/tools/confined-io.ts): its
// temporary file, `.NAME.resolute-XXXXXXXX.tmp`, which nothing removed. The next write to the same
// folder removes ours that are stale, and nothing else: not a young one (a write running now in
// another chat), not a person's file with a look-alike name, not a folder so named.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STALE_TEMPORARY_MS, temporaryName } from '../../../../src/main/node/tools/confined-io';
import { runWrite } from '../../../../src/main/node/tools/write-tool';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-stale-tmp-')));
  mkdirSync(join(ws, 'src'));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

/** A file in src/, its times set `ageMs` in the past. */
function plant(name: string, ageMs: number): string {
  const path = join(ws, 'src', name);
  writeFileSync(path, 'half a file');
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(path, when, when);
  return name;
}

describe('temporary files left by a killed write', () => {
  it('the next write to the folder removes the stale ones of ours, and only those', () => {
    const stale = plant(temporaryName('main.ts'), STALE_TEMPORARY_MS + 60_000);
    const staleOther = plant(temporaryName('a name\nwith a newline'), STALE_TEMPORARY_MS * 3);
    const young = plant(temporaryName('main.ts'), 1000);
    const lookAlike = plant('.notes.resolute-notes.tmp', STALE_TEMPORARY_MS * 2);
    const plain = plant('main.resolute-0123abcd.tmp', STALE_TEMPORARY_MS * 2);
    mkdirSync(join(ws, 'src', '.dir.resolute-0123abcd.tmp'));
    runWrite(ws, { path: 'src/main.ts', content: 'export {};\n' });
    const left = readdirSync(join(ws, 'src'));
    expect(left).not.toContain(stale);
    expect(left).not.toContain(staleOther);
    expect(left.sort()).toEqual(['.dir.resolute-0123abcd.tmp', lookAlike, plain, young, 'main.ts'].sort());
  });

  it('a write elsewhere leaves this folder alone', () => {
    const stale = plant(temporaryName('main.ts'), STALE_TEMPORARY_MS * 2);
    runWrite(ws, { path: 'other.txt', content: 'x' });
    expect(readdirSync(join(ws, 'src'))).toContain(stale);
  });
});
