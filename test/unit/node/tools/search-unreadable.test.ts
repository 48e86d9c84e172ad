// One entry ripgrep cannot read (issue 40, item 13; src/main/node/tools/ripgrep.ts): it used to make
// every find and grep of the workspace answer only with ripgrep's error. Now the matches elsewhere
// come back with a note naming what could not be read. Two real unreadable entries: a folder with
// mode 000 (unreadable inside the search's sandbox, which has no capabilities, even as root) and a
// folder nested past PATH_MAX (unreadable to anyone). Real ripgrep, real bubblewrap.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFind } from '../../../../src/main/node/tools/find-tool';
import { runGrep } from '../../../../src/main/node/tools/grep-tool';

let ws: string;
const LONG = 'd'.repeat(250);

beforeAll(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-unreadable-')));
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'main.ts'), 'const needle = 1;\n');
  writeFileSync(join(ws, 'zz-last.ts'), 'needle again\n');
  mkdirSync(join(ws, 'locked'));
  writeFileSync(join(ws, 'locked', 'inside.ts'), 'needle\n');
  chmodSync(join(ws, 'locked'), 0o000);
  // 18 levels of 250-character names: past PATH_MAX (4096), step by step from inside.
  const made = spawnSync(
    '/bin/bash',
    ['-c', `mkdir deep && cd deep && for i in $(seq 18); do mkdir ${LONG} && cd ${LONG}; done && echo needle > f.ts`],
    { cwd: ws },
  );
  if (made.status !== 0) throw new Error(`could not build the deep folder: ${made.stderr}`);
});

afterAll(() => {
  chmodSync(join(ws, 'locked'), 0o755);
  spawnSync('/bin/rm', ['-rf', ws]);
  rmSync(ws, { recursive: true, force: true });
});

describe('an unreadable entry in the workspace', () => {
  it('grep keeps the matches and names what it could not read', async () => {
    const { text } = await runGrep(ws, { pattern: 'needle' });
    const [found, note] = text.split('\n\n');
    expect(found.split('\n').sort()).toEqual(['src/main.ts:1: const needle = 1;', 'zz-last.ts:1: needle again']);
    expect(note).toMatch(/^\[Could not read 2 entries \(not searched\): /);
    expect(note).toContain('locked (Permission denied)');
    expect(note).toContain(`deep/${'d'.repeat(195)}… (File name too long)`);
  });

  it('find keeps the files and names what it could not read', async () => {
    const { text } = await runFind(ws, { pattern: '*.ts' });
    const [found, note] = text.split('\n\n');
    expect(found.split('\n')).toEqual(['src/main.ts', 'zz-last.ts']);
    expect(note).toMatch(/^\[Could not read 2 entries \(not searched\): /);
    expect(note).toContain('locked (Permission denied)');
  });

  it('with nothing found elsewhere, says so and still names them', async () => {
    const { text, isError } = await runGrep(ws, { pattern: 'absent-word' });
    expect(isError).toBe(false);
    expect(text).toMatch(/^No matches found\.\n\n\[Could not read 2 entries/);
  });

  it('a bad pattern is still an error of its own', async () => {
    await expect(runGrep(ws, { pattern: '(' })).rejects.toThrow(/regex parse error/);
  });
});
