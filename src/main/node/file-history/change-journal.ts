// The workspace's change journal (docs/file-history.md, "Cost"): while a snapshot of the workspace
// stands, every folder it walked is watched (inotify, Linux), so the next snapshot can tell that
// nothing changed without a walk — the `lstat` of every file, ~300 ms in a 50,000-file workspace.
// Any event at all, an error, a folder over the watch limit, a file system whose changes inotify
// may not see, or a settle that does not come back in time means "walk again": the journal only
// ever saves a walk, it never decides what changed.
import { mkdtempSync, rmSync, statfsSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** More folders than this and the workspace is walked every time (inotify watches are a per-user budget). */
export const MAX_WATCHED_FOLDERS = 4096;

/** How long a settle waits for its own marker before the journal is not trusted for that snapshot. */
const SETTLE_TIMEOUT_MS = 2_000;

// statfs magic numbers of local file systems whose every change passes through this kernel, so
// inotify reports it. A network or FUSE file system may change under us unseen: no journal there.
const LOCAL_FILE_SYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
]);

/** One walk's watches: quiet while no event arrived since the walk began. */
export class JournalRound {
  private readonly watchers: FSWatcher[] = [];
  private events = 0;
  private broken = false;

  constructor(private readonly maxFolders = MAX_WATCHED_FOLDERS) {}

  /** Watch `folder` before it is read; false when this round can no longer be trusted. */
  watch(folder: string): boolean {
    if (this.broken) return false;
    if (this.watchers.length >= this.maxFolders) return this.break();
    try {
      const watcher = watch(folder, { persistent: false }, () => {
        this.events += 1;
      });
      watcher.on('error', () => this.break());
      this.watchers.push(watcher);
      return true;
    } catch {
      return this.break();
    }
  }

  /** No change reported since the round began, and nothing that makes it blind. */
  get quiet(): boolean {
    return !this.broken && this.events === 0;
  }

  /** It stopped watching (over the limit, an error): it can never say "quiet". */
  get blind(): boolean {
    return this.broken;
  }

  close(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  private break(): false {
    this.broken = true;
    this.close();
    return false;
  }
}

/** Whether changes under `workspace` reach inotify: Linux, on a local file system. */
export function journalSupported(workspace: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return LOCAL_FILE_SYSTEMS.has(statfsSync(workspace).type);
  } catch {
    return false;
  }
}

let marker: { folder: string; next: number; waiting: Map<number, () => void> } | null = null;

/**
 * Resolves true once every change made before the call has been delivered to the journal's
 * watchers. libuv reads all of a process's inotify watches from one queue, in order: a marker file
 * written now arrives after every event queued before it. False when the marker did not come back
 * within the timeout (an overflowing queue, a starved loop): then the journal is not trusted.
 */
export function settle(): Promise<boolean> {
  const state = (marker ??= openMarker());
  if (!state) return Promise.resolve(false);
  const id = state.next++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      state.waiting.delete(id);
      resolve(false);
    }, SETTLE_TIMEOUT_MS);
    state.waiting.set(id, () => {
      clearTimeout(timer);
      resolve(true);
    });
    try {
      writeFileSync(join(state.folder, `m${id}`), '');
      rmSync(join(state.folder, `m${id}`), { force: true });
    } catch {
      state.waiting.delete(id);
      clearTimeout(timer);
      resolve(false);
    }
  });
}

function openMarker(): typeof marker {
  try {
    const folder = mkdtempSync(join(tmpdir(), 'resolute-journal-'));
    const waiting = new Map<number, () => void>();
    // The folder is private to this process; it goes with the process's temporary files.
    watch(folder, { persistent: false }, (_event, name) => {
      const id = /^m(\d+)$/.exec(String(name ?? ''))?.[1];
      if (id === undefined) return;
      for (const [waiter, done] of waiting) {
        if (waiter > Number(id)) continue;
        waiting.delete(waiter);
        done();
      }
    });
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    return { folder, next: 0, waiting };
  } catch {
    return null;
  }
}
