// The file history over real HTTP (docs/file-history.md): a scripted model (the simulator's
// tool:NAME:ARGS steps) runs write, edit and bash — bash in the real bubblewrap sandbox — and each
// case checks what the history recorded with the turn: the files created, changed and deleted
// (renamed, chmod-ed, binary, in new folders), their contents stored once, and the limits said.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import type { StoredFileChange } from '../../src/shared/file-history';
import { tool } from '../fixtures/sim-steps';

let root: string;
let workspace: string;
let services: AppServices;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-files-it-')));
  workspace = join(root, 'ws');
  mkdirSync(workspace);
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir: join(root, 'data'),
    workspace,
    overlay: { tools: { approval: 'auto', timeoutMs: 20_000 }, retry: { baseDelayMs: 1, jitterMaxMs: 0 } },
    publish: () => undefined,
  });
});

afterAll(async () => {
  await services.dispose();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => services.domains.session.newSession());

async function run(...steps: string[]): Promise<StoredFileChange[]> {
  services.simulator!.setScript([...steps, 'ok'].join(', '));
  await services.session.prompt('change some files');
  return services.history.files.changes(services.session.sessionId);
}

const brief = (changes: StoredFileChange[]) =>
  changes.map((c) => [c.toolName, c.path, c.kind, c.before?.mode ?? null, c.after?.mode ?? null]);

const content = (hash: string | undefined) => services.history.files.content(hash ?? '')?.toString('utf8');

describe('recording', () => {
  it('write and edit store the content before and after, with the turn', async () => {
    writeFileSync(join(workspace, 'plan.md'), 'one\ntwo\n');
    const changes = await run(
      tool('write', { path: 'notes.txt', content: 'hello\n' }),
      tool('edit', { path: 'plan.md', edits: [{ oldText: 'two', newText: 'TWO\nthree' }] }),
    );
    expect(brief(changes)).toEqual([
      ['write', 'notes.txt', 'created', null, 0o644 & ~process.umask()],
      ['edit', 'plan.md', 'changed', 0o644 & ~process.umask(), 0o644 & ~process.umask()],
    ]);
    expect(content(changes[0].after?.hash)).toBe('hello\n');
    expect(content(changes[1].before?.hash)).toBe('one\ntwo\n');
    expect(content(changes[1].after?.hash)).toBe('one\nTWO\nthree\n');
    expect(changes[1]).toMatchObject({ added: 2, removed: 1, binary: false, state: 'applied' });
    const detail = services.history.getSession(services.session.sessionId)!;
    const results = detail.turns.filter((t) => t.role === 'toolResult').map((t) => t.id);
    expect(changes.map((c) => c.turnId)).toEqual(results);
    expect(changes[0].userTurnId).toBe(detail.turns[0].id);
  });

  it('bash: created, changed, deleted, renamed, chmod-ed, binary and nested files', async () => {
    mkdirSync(join(workspace, 'b'));
    writeFileSync(join(workspace, 'b', 'keep.txt'), 'same\n');
    writeFileSync(join(workspace, 'b', 'change.txt'), 'old\n');
    writeFileSync(join(workspace, 'b', 'gone.txt'), 'bye\n');
    writeFileSync(join(workspace, 'b', 'from.txt'), 'moving\n');
    writeFileSync(join(workspace, 'b', 'run.sh'), 'echo hi\n');
    chmodSync(join(workspace, 'b', 'run.sh'), 0o644);
    const script = [
      'cd b',
      'echo new >> change.txt',
      'rm gone.txt',
      'mv from.txt to.txt',
      'chmod 755 run.sh',
      'printf "\\000\\001\\002" > blob.bin',
      'mkdir -p deep/er && echo nested > deep/er/n.txt',
    ].join(' && ');
    const changes = await run(tool('bash', { command: script }));
    const rows = brief(changes).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(rows).toEqual([
      ['bash', 'b/blob.bin', 'created', null, 0o644 & ~process.umask()],
      ['bash', 'b/change.txt', 'changed', 0o644, 0o644],
      ['bash', 'b/deep/er/n.txt', 'created', null, expect.any(Number)],
      ['bash', 'b/from.txt', 'deleted', 0o644, null],
      ['bash', 'b/gone.txt', 'deleted', 0o644, null],
      ['bash', 'b/run.sh', 'changed', 0o644, 0o755],
      ['bash', 'b/to.txt', 'created', null, 0o644],
    ]);
    const byPath = new Map(changes.map((c) => [c.path, c]));
    expect(content(byPath.get('b/gone.txt')?.before?.hash)).toBe('bye\n');
    expect(byPath.get('b/blob.bin')?.binary).toBe(true);
    expect(byPath.get('b/change.txt')).toMatchObject({ added: 1, removed: 0 });
    expect(statSync(join(workspace, 'b', 'run.sh')).mode & 0o777).toBe(0o755);
  });

  it('what cannot be kept is said on the turn: .git/, .gitignore, a file over the limit', async () => {
    writeFileSync(join(workspace, '.gitignore'), 'build/\n');
    mkdirSync(join(workspace, '.git'), { recursive: true });
    await run(tool('bash', { command: 'true' })); // the index, before the case
    const changes = await run(
      tool('bash', {
        command:
          'mkdir -p build && echo x > build/out.js && echo y > .git/HEAD && head -c 17000000 /dev/zero > big.bin',
      }),
    );
    expect(changes).toEqual([]);
    const notes = services.history.files.notRecorded(services.session.sessionId);
    // The first call's notes are the sandbox's own: its git guard's placeholders in an empty .git/.
    expect(notes).toHaveLength(2);
    expect(notes[1].reasons.sort()).toEqual([
      "1 file in .git/ (git's own data): .git/HEAD",
      '1 file over the 16.0 MB the file history keeps: big.bin',
      "1 file the workspace's .gitignore leaves out: build/out.js",
    ]);
    const result = services.history
      .getSession(services.session.sessionId)!
      .turns.findLast((t) => t.role === 'toolResult');
    expect((result?.message as { details?: { notRecorded?: string[] } }).details?.notRecorded).toHaveLength(3);
    rmSync(join(workspace, 'big.bin'));
    rmSync(join(workspace, '.gitignore'));
  });

  it('an MCP-less read changes nothing and records nothing', async () => {
    const changes = await run(tool('read', { path: 'notes.txt' }));
    expect(changes).toEqual([]);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hello\n');
  });
});
