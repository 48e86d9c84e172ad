// The file history's walk against a folder swapped for a link mid-walk (docs/file-history.md,
// "Cost"; src/main/node/file-history/workspace-snapshot.ts): a helper process exchanges a workspace
// folder `d` with a link to a folder holding a key (renameat2 RENAME_EXCHANGE, in a tight loop)
// while snapshots are taken around 100 "commands" that each change a file in `d`. Nothing of the
// key's folder may be read, stored or named; a snapshot that met the swap says it recorded nothing.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkspaceSnapshots, type SnapshotStore } from '../../../../src/main/node/file-history/workspace-snapshot';
import { startLinkSwapper } from '../../../fixtures/link-swapper';

const CALLS = 100;
let root: string;
let ws: string;
let swapper: ChildProcess;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-snapshot-race-')));
  ws = join(root, 'ws');
  const keys = join(root, 'keys');
  mkdirSync(join(ws, 'd'), { recursive: true });
  mkdirSync(keys);
  writeFileSync(join(ws, 'd', 'ordinary.txt'), 'nothing here\n');
  writeFileSync(join(keys, 'credentials.key'), 'SECRET-KEY-0123456789\n');
  symlinkSync(keys, join(ws, 'link'));
  swapper = await startLinkSwapper(root, join(ws, 'd'), join(ws, 'link'));
});

afterAll(() => {
  swapper?.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

it(`${CALLS} snapshots around commands while a folder and a link swap: the key is never read or named`, async () => {
  const stored: string[] = [];
  const store: SnapshotStore = {
    generation: 0,
    storeContents: (contents) => stored.push(...contents.map((c) => Buffer.from(c.bytes).toString('utf8'))),
    content: () => null,
  };
  const snapshots = new WorkspaceSnapshots(store);
  const named: string[] = [];
  const said: string[] = [];
  try {
    for (let i = 0; i < CALLS; i += 1) {
      const before = await snapshots.before(ws);
      // The "command": whichever of the two names is the real folder now, a file in it changes.
      writeFileSync(join(ws, `top-${i % 3}.txt`), `call ${i}\n`);
      const recorded = await snapshots.after(before);
      named.push(...recorded.changes.map((c) => c.path), ...[...before.entries.keys()]);
      said.push(...recorded.notRecorded);
    }
  } finally {
    snapshots.close();
  }
  expect(stored.filter((text) => text.includes('SECRET-KEY'))).toEqual([]);
  expect(named.filter((path) => path.includes('credentials'))).toEqual([]);
  // The race was live: the walk did list the real folder's file on some calls.
  expect(named.some((path) => path.endsWith('ordinary.txt'))).toBe(true);
  for (const text of said) expect(text).toMatch(/swapped|symbolic link|not regular files/);
}, 120_000);
