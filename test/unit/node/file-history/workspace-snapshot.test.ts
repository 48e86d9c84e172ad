// WorkspaceSnapshots (src/main/node/file-history/workspace-snapshot.ts) on a real folder: a file
// whose entry is unchanged since the last snapshot is not read again — the cost a bash call pays in
// a big workspace (docs/file-history.md, "Cost") — while a changed one is read, stored and named.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  it('reads a file once: snapshots after the first read only what changed', () => {
    const ws = workspace(20);
    const { store, batches } = countingStore();
    const snapshots = new WorkspaceSnapshots(store);
    snapshots.after(snapshots.before(ws));
    expect(batches).toEqual([20, 0]);
    const before = snapshots.before(ws);
    writeFileSync(join(ws, 'f3.txt'), 'changed\n');
    const recorded = snapshots.after(before);
    expect(batches).toEqual([20, 0, 0, 1]);
    expect(recorded.changes.map((c) => [c.path, c.kind])).toEqual([['f3.txt', 'changed']]);
  });

  it('a change of mode alone is seen, without reading the file again', () => {
    const ws = workspace(2);
    const { store, batches } = countingStore();
    const snapshots = new WorkspaceSnapshots(store);
    const before = snapshots.before(ws);
    chmodSync(join(ws, 'f1.txt'), 0o755);
    const recorded = snapshots.after(before);
    expect(recorded.changes.map((c) => c.path)).toEqual(['f1.txt']);
    // The chmod changed the entry's ctime: the file is read again, its bytes the same.
    expect(batches).toEqual([2, 1]);
  });
});
