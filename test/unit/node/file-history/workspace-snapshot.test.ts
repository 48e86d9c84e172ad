// WorkspaceSnapshots (src/main/node/file-history/workspace-snapshot.ts) on a real folder: a file
// whose entry is unchanged since the last snapshot is not read again — the cost a bash call pays in
// a big workspace (docs/file-history.md, "Cost") — while a changed one is read, stored and named.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceSnapshots, type SnapshotStore } from '../../../../src/main/node/file-history/workspace-snapshot';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A store in memory that counts what each snapshot read and stored. */
function countingStore() {
  const stored = new Map<string, Buffer>();
  const batches: number[] = [];
  const store: SnapshotStore = {
    generation: 0,
    storeContents(contents) {
      batches.push(contents.length);
      for (const { hash, bytes } of contents) stored.set(hash, Buffer.from(bytes));
    },
    content: (hash) => stored.get(hash) ?? null,
  };
  return { store, batches };
}

function workspace(files: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'resolute-snapshot-'));
  folders.push(folder);
  for (let i = 0; i < files; i += 1) writeFileSync(join(folder, `f${i}.txt`), `file ${i}\n`);
  return folder;
}

describe('WorkspaceSnapshots', () => {
  it('reads a file once: snapshots after the first read only what changed', async () => {
    const ws = workspace(20);
    const { store, batches } = countingStore();
    const snapshots = new WorkspaceSnapshots(store);
    await snapshots.after(await snapshots.before(ws));
    expect(batches).toEqual([20, 0]);
    const before = await snapshots.before(ws);
    writeFileSync(join(ws, 'f3.txt'), 'changed\n');
    const recorded = await snapshots.after(before);
    expect(batches).toEqual([20, 0, 0, 1]);
    expect(recorded.changes.map((c) => [c.path, c.kind])).toEqual([['f3.txt', 'changed']]);
  });

  it('a change of mode alone is seen, without reading the file again', async () => {
    const ws = workspace(2);
    const { store, batches } = countingStore();
    const snapshots = new WorkspaceSnapshots(store);
    const before = await snapshots.before(ws);
    chmodSync(join(ws, 'f1.txt'), 0o755);
    const recorded = await snapshots.after(before);
    expect(recorded.changes.map((c) => c.path)).toEqual(['f1.txt']);
    // The chmod changed the entry's ctime: the file is read again, its bytes the same.
    expect(batches).toEqual([2, 1]);
  });
});

describe('the walk', () => {
  it('sees nested folders whole, in path order, and stops at the entry limit', async () => {
    const ws = workspace(0);
    for (let i = 0; i < 30; i += 1) {
      mkdirSync(join(ws, `d${i % 3}`, `e${i % 5}`), { recursive: true });
      writeFileSync(join(ws, `d${i % 3}`, `e${i % 5}`, `f${i}.txt`), `${i}\n`);
    }
    const { store } = countingStore();
    const snapshots = new WorkspaceSnapshots(store);
    const before = await snapshots.before(ws);
    expect(before.entries.size).toBe(30);
    for (let i = 0; i < 30; i += 3) writeFileSync(join(ws, `d${i % 3}`, `e${i % 5}`, `f${i}.txt`), 'new\n');
    const paths = (await snapshots.after(before)).changes.map((c) => c.path);
    expect(paths).toHaveLength(10);
    expect(paths).toEqual([...paths].sort());

    const limited = new WorkspaceSnapshots(store, { maxEntries: 20, maxReadBytes: 1 << 20 });
    const cut = await limited.before(ws);
    expect(cut.complete).toBe(false);
    expect((await limited.after(cut)).notRecorded[0]).toMatch(/more than 20 files and folders/);
  });
});
