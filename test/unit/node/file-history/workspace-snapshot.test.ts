// WorkspaceSnapshots (src/main/node/file-history/workspace-snapshot.ts) on a real folder: a file
// whose entry is unchanged since the last snapshot is not read again — the cost a bash call pays in
// a big workspace (docs/file-history.md, "Cost") — while a changed one is read, stored and named;
// with the change journal, a workspace nothing touched is not walked again, and whatever another
// process changes in it (in place, in a new folder, its mode) is still seen.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  WorkspaceSnapshots,
  type SnapshotLimits,
  type SnapshotStore,
} from '../../../../src/main/node/file-history/workspace-snapshot';
import { hashBytes } from '../../../../src/main/node/file-history/file-versions';
import { journalSupported } from '../../../../src/main/node/file-history/change-journal';

const folders: string[] = [];
const opened: WorkspaceSnapshots[] = [];
afterEach(() => {
  for (const snapshots of opened.splice(0)) snapshots.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function snapshotsOf(store: SnapshotStore, limits?: SnapshotLimits): WorkspaceSnapshots {
  const snapshots = new WorkspaceSnapshots(store, limits);
  opened.push(snapshots);
  return snapshots;
}

/** A change made by another process, as a command or the person's editor would. */
const shell = (script: string, cwd: string) => execFileSync('sh', ['-c', script], { cwd });

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
    const snapshots = snapshotsOf(store);
    await snapshots.after(await snapshots.before(ws));
    writeFileSync(join(ws, 'f0.txt'), 'touched between two commands\n');
    const before = await snapshots.before(ws);
    writeFileSync(join(ws, 'f3.txt'), 'changed\n');
    const recorded = await snapshots.after(before);
    // 20 at first; then only what each change touched (nothing read for the unchanged 19).
    expect(batches.filter((n) => n > 0)).toEqual([20, 1, 1]);
    expect(recorded.changes.map((c) => [c.path, c.kind])).toEqual([['f3.txt', 'changed']]);
  });

  it('a change of mode alone is seen, without reading the file again', async () => {
    const ws = workspace(2);
    const { store, batches } = countingStore();
    const snapshots = snapshotsOf(store);
    const before = await snapshots.before(ws);
    chmodSync(join(ws, 'f1.txt'), 0o755);
    const recorded = await snapshots.after(before);
    expect(recorded.changes.map((c) => c.path)).toEqual(['f1.txt']);
    // The chmod changed the entry's ctime: the file is read again, its bytes the same.
    expect(batches).toEqual([2, 1]);
  });

  describe.runIf(journalSupported(tmpdir()))('with the change journal', () => {
    it('a workspace nothing touched is not walked again: the same snapshot comes back', async () => {
      const ws = workspace(5);
      const snapshots = snapshotsOf(countingStore().store);
      const first = await snapshots.before(ws);
      expect(await snapshots.before(ws)).toBe(first);
      expect((await snapshots.after(first)).changes).toEqual([]);
    });

    it("another process's changes are seen: in place, in a new nested folder, a mode, a delete", async () => {
      const ws = workspace(3);
      const snapshots = snapshotsOf(countingStore().store);
      const steps: [string, string[]][] = [
        ['echo more >> f0.txt', ['f0.txt']],
        ['mkdir -p a/b && printf x > a/b/new.bin', ['a/b/new.bin']],
        ['chmod 700 f1.txt', ['f1.txt']],
        ['rm f2.txt', ['f2.txt']],
      ];
      for (const [script, paths] of steps) {
        const before = await snapshots.before(ws);
        shell(script, ws);
        expect((await snapshots.after(before)).changes.map((c) => c.path)).toEqual(paths);
      }
    });

    it('a change between two commands makes the next snapshot walk, and its content before is the new one', async () => {
      const ws = workspace(2);
      const snapshots = snapshotsOf(countingStore().store);
      await snapshots.after(await snapshots.before(ws));
      shell('echo "the person\'s edit" > f0.txt', ws);
      const before = await snapshots.before(ws);
      shell('echo "the command" > f0.txt', ws);
      const [change] = (await snapshots.after(before)).changes;
      expect(change.path).toBe('f0.txt');
      expect(change.before?.hash).toBe(hashBytes(Buffer.from("the person's edit\n")));
    });

    it('past the watch limit the workspace is walked every time', async () => {
      const ws = workspace(0);
      for (let i = 0; i < 4; i += 1) mkdirSync(join(ws, `d${i}`));
      writeFileSync(join(ws, 'd3', 'f.txt'), 'x');
      const limits = { maxEntries: 1000, maxReadBytes: 1 << 20, maxWatchedFolders: 4 };
      const snapshots = snapshotsOf(countingStore().store, limits);
      const first = await snapshots.before(ws);
      expect(first.round).toBeNull();
      expect(await snapshots.before(ws)).not.toBe(first);
      // Within the limit (the workspace and its 4 folders are 5), the journal stands.
      const within = snapshotsOf(countingStore().store, { ...limits, maxWatchedFolders: 5 });
      const kept = await within.before(ws);
      expect(await within.before(ws)).toBe(kept);
    });
  });
});
