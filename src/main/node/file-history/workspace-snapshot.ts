// What a `bash` command changed in the workspace (docs/file-history.md, "bash"): an index of every
// file (size, mtime, ctime, inode, mode) taken before the command and compared after it. A file is
// read and hashed only when its entry changed since the last index of that workspace, and its
// content is stored then (the history's file_contents), so a change can name its content before.
// What is not kept — .git/, what the workspace's .gitignore leaves out, a file over the size
// limit, a symbolic link, a workspace over the file limit — is still compared by its entry, and
// its changes are said ("not recorded: …"), never skipped silently. bash-tool.ts takes one around
// each command; bench/file-snapshot.ts times it. Where the change journal can watch the workspace
// (change-journal.ts), a snapshot with no change reported since it stands is used again unwalked.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { RecordedFiles } from '../../core/ports';
import type { FileChange } from '../../../shared/file-history';
import { formatSize } from '../tools/output-caps';
import { JournalRound, journalSupported, MAX_WATCHED_FOLDERS, settle } from './change-journal';
import { describeChange, hashBytes, MAX_RECORDED_FILE_BYTES } from './file-versions';

/** Where the file history keeps a snapshot's contents (the history's FileHistoryTable). */
export interface SnapshotStore {
  /** Changes when stored contents may have been removed (a session's delete): cached hashes are then re-read. */
  readonly generation: number;
  storeContents(contents: readonly { hash: string; bytes: Uint8Array }[]): void;
  content(hash: string): Buffer | null;
}

export interface SnapshotLimits {
  /** A workspace with more entries than this is not recorded (default 200 000). */
  maxEntries: number;
  /** New content read by one snapshot, bytes (default 512 MB); past it, files are not recorded. */
  maxReadBytes: number;
  /** Folders the change journal watches at most; past it, every snapshot walks (default 4096). */
  maxWatchedFolders: number;
}

const DEFAULT_LIMITS: SnapshotLimits = {
  maxEntries: 200_000,
  maxReadBytes: 512 * 1024 * 1024,
  maxWatchedFolders: MAX_WATCHED_FOLDERS,
};

/** Why a file's content is not kept. */
type Untracked = 'git' | 'ignored' | 'large' | 'budget' | 'link' | 'other';

interface Entry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  /** SHA-256 of its bytes, stored; null when not kept (`why`). */
  hash: string | null;
  why: Untracked | null;
}

export interface Snapshot {
  workspace: string;
  entries: Map<string, Entry>;
  /** Why the walk stopped short (the entry limit, a folder swapped mid-walk): nothing of the command can be recorded; null when whole. */
  incomplete: string | null;
  /** The watches set while it was walked; null where the workspace cannot be watched. */
  round: JournalRound | null;
}

// An entry keeps only the permission bits (`mode & 0o7777`); a Stats' mode carries the file type too.
const unchanged = (a: Entry, b: Stats): boolean =>
  a.size === b.size &&
  a.mtimeMs === b.mtimeMs &&
  a.ctimeMs === b.ctimeMs &&
  a.ino === b.ino &&
  a.mode === (b.mode & 0o7777);

export class WorkspaceSnapshots {
  private readonly last = new Map<string, { generation: number; snapshot: Snapshot }>();
  /** Each workspace's watches, those of its latest walk. */
  private readonly rounds = new Map<string, JournalRound | null>();

  constructor(
    private readonly store: SnapshotStore,
    private readonly limits: SnapshotLimits = DEFAULT_LIMITS,
  ) {}

  /** The index before a command: entries unchanged since the last one keep their hash. */
  async before(workspace: string): Promise<Snapshot> {
    return (await this.take(workspace)).snapshot;
  }

  /** Compared with `before`: the command's changes, with the contents before and after stored. */
  async after(before: Snapshot): Promise<RecordedFiles> {
    const { snapshot, stored } = await this.take(before.workspace, before);
    const recorded: RecordedFiles = { workspace: before.workspace, changes: [], contents: [], notRecorded: [] };
    const incomplete = before.incomplete ?? snapshot.incomplete;
    if (incomplete) {
      recorded.notRecorded.push(`${incomplete}: this command's changes were not recorded`);
      return recorded;
    }
    const untracked = new Map<Untracked, string[]>();
    const note = (why: Untracked, path: string) => untracked.set(why, [...(untracked.get(why) ?? []), path]);
    for (const [path, entry] of snapshot.entries) {
      const old = before.entries.get(path);
      if (old && old.hash !== null && old.hash === entry.hash && old.mode === entry.mode) continue;
      if (old && old.hash === null && entry.hash === null && sameEntry(old, entry)) continue;
      const blocked = entry.why ?? old?.why ?? null;
      if (blocked) note(blocked, path);
      else recorded.changes.push(this.change(path, old ?? null, entry, stored));
    }
    for (const [path, old] of before.entries) {
      if (snapshot.entries.has(path)) continue;
      if (old.why) note(old.why, path);
      else recorded.changes.push(this.change(path, old, null, stored));
    }
    recorded.notRecorded.push(...describeUntracked(untracked));
    return recorded;
  }

  private change(path: string, old: Entry | null, now: Entry | null, stored: Map<string, Buffer>): FileChange {
    const bytesOf = (entry: Entry) => stored.get(entry.hash ?? '') ?? this.store.content(entry.hash ?? '');
    const side = (entry: Entry | null) =>
      entry ? { bytes: bytesOf(entry) ?? Buffer.alloc(0), mode: entry.mode } : null;
    return describeChange(path, side(old), side(now));
  }

  /** The watches stop (tests, and a workspace no longer used). */
  close(): void {
    for (const round of this.rounds.values()) round?.close();
    this.rounds.clear();
  }

  /** Walk the workspace; read and store what changed since the last snapshot (or since `base`). */
  private async take(workspace: string, base?: Snapshot): Promise<{ snapshot: Snapshot; stored: Map<string, Buffer> }> {
    const cached = this.last.get(workspace);
    const previous = base ?? (cached?.generation === this.store.generation ? cached.snapshot : undefined);
    if (previous?.round && (await settle()) && previous.round.quiet && previous.round === this.rounds.get(workspace)) {
      return { snapshot: previous, stored: new Map() };
    }
    const round = journalSupported(workspace) ? new JournalRound(this.limits.maxWatchedFolders) : null;
    const reader = new ContentReader(this.limits.maxReadBytes);
    const entries = new Map<string, Entry>();
    const watchFolder = (folder: string) => round?.watch(folder);
    const incomplete = walk(workspace, this.limits, watchFolder, (path, stat, why, access) => {
      const old = previous?.entries.get(path);
      const entry: Entry = {
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        ctimeMs: stat.ctimeMs,
        ino: stat.ino,
        mode: stat.mode & 0o7777,
        hash: null,
        why,
      };
      if (why === null && old && old.hash !== null && unchanged(old, stat)) entry.hash = old.hash;
      else if (why === null) reader.read(access, stat, entry);
      entries.set(path, entry);
    });
    this.store.storeContents(reader.contents);
    const kept = !incomplete && round && !round.blind ? round : null;
    if (!kept) round?.close();
    this.rounds.get(workspace)?.close();
    this.rounds.set(workspace, kept);
    const snapshot = { workspace, entries, incomplete, round: kept };
    this.last.set(workspace, { generation: this.store.generation, snapshot });
    return { snapshot, stored: new Map(reader.contents.map((c) => [c.hash, c.bytes])) };
  }
}

const sameEntry = (a: Entry, b: Entry): boolean =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.mode === b.mode;

/** Reads files to hash and store, within the snapshot's byte budget. */
class ContentReader {
  readonly contents: { hash: string; bytes: Buffer }[] = [];
  private spent = 0;

  constructor(private readonly budget: number) {}

  read(absolute: string, stat: Stats, entry: Entry): void {
    if (stat.size > MAX_RECORDED_FILE_BYTES) {
      entry.why = 'large';
      return;
    }
    if (this.spent + stat.size > this.budget) {
      entry.why = 'budget';
      return;
    }
    const bytes = readNoFollow(absolute, stat);
    if (bytes === null) {
      entry.why = 'other';
      return;
    }
    this.spent += bytes.length;
    entry.hash = hashBytes(bytes);
    entry.size = bytes.length;
    this.contents.push({ hash: entry.hash, bytes });
  }
}

/** The bytes of the very file the walk saw: a link or another file swapped in since reads as null. */
function readNoFollow(absolute: string, stat: Stats): Buffer | null {
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.ino !== stat.ino) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The workspace's own .gitignore (its root's), or null. */
function rootIgnore(workspace: string): Ignore | null {
  try {
    return ignore().add(readFileSync(join(workspace, '.gitignore'), 'utf8'));
  } catch {
    return null;
  }
}

/** `access`: a path to the very file the walk listed (through its folder's descriptor, on Linux). */
type Visit = (path: string, stat: Stats, why: Untracked | null, access: string) => void;

// On Linux each folder is opened without following a link and checked by where /proc says the
// descriptor is, then listed and its files `lstat`ed and read through /proc/self/fd/N/<name>: a
// folder swapped for a link mid-walk (renameat2 exchange) cannot lead the walk out of the workspace.
const verifiesFolders = process.platform === 'linux';

/** The folder opened as itself: a base path for its entries, and what closes it; null if it is not that folder now. */
function openFolder(folder: string): { base: string; close: () => void } | null {
  if (!verifiesFolders) return { base: folder, close: () => undefined };
  let fd: number;
  try {
    fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (readlinkSync(`/proc/self/fd/${fd}`) === folder)
      return { base: `/proc/self/fd/${fd}`, close: () => closeSync(fd) };
  } catch {
    // Unreadable: not verified.
  }
  closeSync(fd);
  return null;
}

/**
 * Every entry but folders, links never followed; a reason when it stopped short (the entry limit, a
 * folder that was not itself when opened), else null. Each folder is handed to `watchFolder`
 * before it is read: a change after that is the journal's to report, one before it the walk's to see.
 */
function walk(
  workspace: string,
  limits: SnapshotLimits,
  watchFolder: (folder: string) => void,
  visit: Visit,
): string | null {
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return 'the workspace could not be read';
  }
  const ignored = rootIgnore(workspace);
  const stack: { dir: string; why: Untracked | null }[] = [{ dir: '', why: null }];
  let seen = 0;
  while (stack.length > 0) {
    const { dir, why } = stack.pop() as { dir: string; why: Untracked | null };
    const folder = dir ? `${root}/${dir}` : root;
    watchFolder(folder);
    const opened = openFolder(folder);
    if (!opened) {
      if (!existsNow(folder)) continue;
      return `the folder ${dir || '.'} changed into a link or was swapped while it was read`;
    }
    try {
      let names: Dirent[];
      try {
        names = readdirSync(opened.base, { withFileTypes: true });
      } catch {
        continue;
      }
      seen += names.length;
      if (seen > limits.maxEntries)
        return `the workspace has more than ${limits.maxEntries.toLocaleString('en')} files and folders`;
      for (const dirent of names) {
        const path = dir ? `${dir}/${dirent.name}` : dirent.name;
        if (dirent.isDirectory()) {
          stack.push({ dir: path, why: why ?? folderWhy(dirent.name, path, ignored) });
          continue;
        }
        const access = `${opened.base}/${dirent.name}`;
        let stat: Stats;
        try {
          // Concatenated: path.join cost about a quarter of the walk (docs/file-history.md, "Cost").
          stat = lstatSync(access);
        } catch {
          continue;
        }
        const own = why ?? (ignored?.ignores(path) ? 'ignored' : null);
        visit(path, stat, own ?? (stat.isSymbolicLink() ? 'link' : stat.isFile() ? null : 'other'), access);
      }
    } finally {
      opened.close();
    }
  }
  return null;
}

/** A folder gone (removed while walked) is simply not there; anything else at its name is a swap. */
function existsNow(folder: string): boolean {
  try {
    lstatSync(folder);
    return true;
  } catch {
    return false;
  }
}

function folderWhy(name: string, path: string, ignored: Ignore | null): Untracked | null {
  if (name === '.git') return 'git';
  return ignored?.ignores(`${path}/`) ? 'ignored' : null;
}

const LABELS: Record<Untracked, (count: number) => string> = {
  git: (n) => `${n} ${n === 1 ? 'file' : 'files'} in .git/ (git's own data)`,
  ignored: (n) => `${n} ${n === 1 ? 'file' : 'files'} the workspace's .gitignore leaves out`,
  large: (n) =>
    `${n} ${n === 1 ? 'file' : 'files'} over the ${formatSize(MAX_RECORDED_FILE_BYTES)} the file history keeps`,
  budget: (n) => `${n} ${n === 1 ? 'file' : 'files'} past the snapshot's reading budget`,
  link: (n) => `${n} symbolic ${n === 1 ? 'link' : 'links'}`,
  other: (n) => `${n} ${n === 1 ? 'entry' : 'entries'} that are not regular files, or could not be read`,
};

/** "3 files in .git/ (git's own data): .git/index, .git/HEAD, …". */
function describeUntracked(untracked: Map<Untracked, string[]>): string[] {
  return [...untracked].map(([why, paths]) => {
    const shown = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ', …' : '');
    return `${LABELS[why](paths.length)}: ${shown}`;
  });
}
