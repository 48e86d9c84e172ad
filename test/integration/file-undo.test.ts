// Undo and redo of the agent's file changes over real HTTP (docs/file-history.md, "Undo"): a
// scripted model changes files with write, edit and bash (the real bubblewrap sandbox), then the
// files.undo command takes the turn back and gives it again — newest first, byte for byte, modes
// included; a file changed since asks and is written only with the person's answer; a link placed
// since cannot redirect a write outside; the undo works after a restart of the app.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../src/main/node/app-services';
import { startServices } from './fixtures/services';
import { tool } from '../fixtures/sim-steps';

let root: string;
let workspace: string;
let dataDir: string;
let services: AppServices;

/** The app on this test's data folder and workspace, `write`, `edit` and `bash` never asking. */
const start = async () =>
  (await startServices({ tools: { approval: 'auto', timeoutMs: 20_000 } }, { dataDir, workspace })).services;

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-undo-it-')));
  workspace = join(root, 'ws');
  dataDir = join(root, 'data');
  mkdirSync(workspace);
  services = await start();
});

afterEach(async () => {
  await services.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** One person's message whose run makes these calls; its turn id. */
async function turn(...steps: string[]): Promise<string> {
  services.simulator!.setScript([...steps, 'ok'].join(', '));
  await services.session.prompt('change some files');
  const turns = services.history.getSession(services.session.sessionId)!.turns;
  return turns.findLast((t) => t.role === 'user')!.id;
}

const read = (path: string) => readFileSync(join(workspace, path));
const text = (path: string) => readFileSync(join(workspace, path), 'utf8');
const mode = (path: string) => statSync(join(workspace, path)).mode & 0o777;
const undo = (turnId: string, more: object = {}) => services.domains.files.undo({ turnId, ...more });

/** Every file of the workspace with its bytes and mode, to compare whole states. */
function state(): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (dir: string) => {
    for (const name of readdirSync(join(workspace, dir))) {
      const path = dir ? `${dir}/${name}` : name;
      const stat = statSync(join(workspace, path));
      if (stat.isDirectory()) visit(path);
      else out[path] = `${(stat.mode & 0o777).toString(8)} ${read(path).toString('base64')}`;
    }
  };
  visit('');
  return out;
}

describe('undo and redo', () => {
  it('write, edit and bash (create, change, delete, rename, mode, binary, nested) undone and redone', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'mine\n');
    writeFileSync(join(workspace, 'plan.md'), 'a\nb\n');
    mkdirSync(join(workspace, 'b'));
    writeFileSync(join(workspace, 'b', 'change.txt'), 'old\n');
    writeFileSync(join(workspace, 'b', 'gone.bin'), Buffer.from([0, 1, 2, 255]));
    writeFileSync(join(workspace, 'b', 'from.txt'), 'moving\n');
    writeFileSync(join(workspace, 'b', 'run.sh'), 'echo hi\n');
    chmodSync(join(workspace, 'b', 'run.sh'), 0o644);
    const before = state();
    const turnId = await turn(
      tool('write', { path: 'notes.txt', content: 'rewritten\n' }),
      tool('edit', { path: 'plan.md', edits: [{ oldText: 'b', newText: 'B' }] }),
      tool('bash', {
        command:
          'cd b && echo more >> change.txt && rm gone.bin && mv from.txt to.txt && chmod 755 run.sh && printf "\\000\\377" > new.bin && mkdir -p x/y && echo n > x/y/n.txt && echo again > ../notes.txt',
      }),
    );
    const after = state();
    expect(after).not.toEqual(before);
    expect(text('notes.txt')).toBe('again\n');

    const preview = undo(turnId, { preview: true });
    expect(preview.status).toBe('preview');
    expect(state()).toEqual(after);
    expect(preview.files.map((f) => [f.path, f.action, f.conflict]).sort()).toEqual(
      [
        ['b/change.txt', 'restore', false],
        ['b/from.txt', 'restore', false],
        ['b/gone.bin', 'restore', false],
        ['b/new.bin', 'remove', false],
        ['b/run.sh', 'restore', false],
        ['b/to.txt', 'remove', false],
        ['b/x/y/n.txt', 'remove', false],
        ['notes.txt', 'restore', false],
        ['plan.md', 'restore', false],
      ].sort(),
    );

    const undone = undo(turnId);
    expect(undone.status).toBe('done');
    // Folders a change made are left, empty (docs/file-history.md).
    const restored = state();
    expect(restored).toEqual(before);
    expect(mode('b/run.sh')).toBe(0o644);
    expect(read('b/gone.bin')).toEqual(Buffer.from([0, 1, 2, 255]));

    const redone = undo(turnId, { redo: true });
    expect(redone.status).toBe('done');
    expect(state()).toEqual(after);
    expect(mode('b/run.sh')).toBe(0o755);

    const records = services.domains.files.changes().undos;
    expect(records.map((r) => [r.action, r.state])).toEqual([
      ['undo', 'done'],
      ['redo', 'done'],
    ]);
    expect(undo(turnId, { redo: true }).status).toBe('nothing');
  });

  it('a file changed since asks: nothing is written until the answer, then keep yours or take the version from before', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'a0\n');
    writeFileSync(join(workspace, 'b.txt'), 'b0\n');
    const turnId = await turn(
      tool('write', { path: 'a.txt', content: 'a1\n' }),
      tool('write', { path: 'b.txt', content: 'b1\n' }),
    );
    writeFileSync(join(workspace, 'a.txt'), 'my own edit\n');
    const asked = undo(turnId);
    expect(asked.status).toBe('conflict');
    expect(asked.files.filter((f) => f.conflict).map((f) => f.path)).toEqual(['a.txt']);
    expect([text('a.txt'), text('b.txt')]).toEqual(['my own edit\n', 'b1\n']);

    const kept = undo(turnId, { choices: { 'a.txt': 'keep' } });
    expect(kept.status).toBe('done');
    expect([text('a.txt'), text('b.txt')]).toEqual(['my own edit\n', 'b0\n']);

    // Taking the version from before overwrites the person's edit only with that answer.
    const again = undo(turnId);
    expect(again.status).toBe('conflict');
    expect(undo(turnId, { choices: { 'a.txt': 'take' } }).status).toBe('done');
    expect(text('a.txt')).toBe('a0\n');
  });

  it('a later turn not undone is a change since: undoing an earlier turn alone asks; Restore files to here takes both, newest first', async () => {
    const first = await turn(tool('write', { path: 'n.txt', content: 'one\n' }));
    await turn(tool('edit', { path: 'n.txt', edits: [{ oldText: 'one', newText: 'two' }] }));
    expect(undo(first).status).toBe('conflict');
    expect(text('n.txt')).toBe('two\n');
    const restored = undo(first, { scope: 'from' });
    expect(restored.status).toBe('done');
    expect(existsSync(join(workspace, 'n.txt'))).toBe(false);
  });

  it('a link placed since cannot redirect the undo outside the workspace', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const turnId = await turn(tool('write', { path: 'd/f.txt', content: 'agent\n' }));
    rmSync(join(workspace, 'd'), { recursive: true });
    symlinkSync(outside, join(workspace, 'd'));
    writeFileSync(join(outside, 'f.txt'), 'agent\n');
    const outcome = undo(turnId, { choices: { 'd/f.txt': 'take' } });
    expect(outcome.files[0]).toMatchObject({ path: 'd/f.txt', conflict: true, result: 'failed' });
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('agent\n');
  });

  it("a turn's Undo works after a restart", async () => {
    writeFileSync(join(workspace, 'r.txt'), 'before\n');
    const turnId = await turn(tool('bash', { command: 'echo after > r.txt && echo made > m.txt' }));
    const sessionId = services.session.sessionId;
    await services.dispose();
    services = await start();
    const outcome = services.domains.files.undo({ sessionId, turnId });
    expect(outcome.status).toBe('done');
    expect(text('r.txt')).toBe('before\n');
    expect(existsSync(join(workspace, 'm.txt'))).toBe(false);
  });
});

describe("a failed run's changes, undone before Resend", () => {
  it('the failed attempt wrote and ran bash; the undo asks for a file changed since, then the message goes again on the workspace put back', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'mine\n');
    writeFileSync(join(workspace, 'plan.md'), 'plan\n');
    // The run writes and runs bash, then its request fails (a 401 the simulator sends over HTTP).
    services.simulator!.setScript(
      [
        tool('write', { path: 'notes.txt', content: 'half done\n' }),
        tool('bash', { command: 'echo draft > draft.txt && echo agent > plan.md' }),
        'auth',
      ].join(', '),
    );
    await services.session.prompt('change some files');
    const session = services.history.getSession(services.session.sessionId)!;
    const turnId = session.turns.findLast((t) => t.role === 'user')!.id;
    expect(session.turns.at(-1)).toMatchObject({ stopReason: 'error' });
    const changed = services.domains.files.changes().changes.filter((c) => c.userTurnId === turnId);
    expect(new Set(changed.map((c) => c.path))).toEqual(new Set(['notes.txt', 'draft.txt', 'plan.md']));
    expect(changed.every((c) => c.state === 'applied')).toBe(true);

    // The person edits one of them meanwhile: the undo asks and writes nothing.
    writeFileSync(join(workspace, 'plan.md'), 'my plan\n');
    const asked = undo(turnId);
    expect(asked.status).toBe('conflict');
    expect(asked.files.filter((f) => f.conflict).map((f) => f.path)).toEqual(['plan.md']);
    expect([text('notes.txt'), text('draft.txt')]).toEqual(['half done\n', 'draft\n']);

    // Keep yours: the rest is put back, the person's edit stays; then Resend sends the message again.
    expect(undo(turnId, { choices: { 'plan.md': 'keep' } }).status).toBe('done');
    expect(text('notes.txt')).toBe('mine\n');
    expect(existsSync(join(workspace, 'draft.txt'))).toBe(false);
    expect(text('plan.md')).toBe('my plan\n');
    services.simulator!.setScript(`${tool('bash', { command: 'cat notes.txt > seen.txt' })}, ok`);
    await services.domains.session.editTurn(turnId, 'change some files');
    // The resent run started from the workspace as it was before the failed one.
    expect(text('seen.txt')).toBe('mine\n');
    const after = services.history.getSession(services.session.sessionId)!.turns;
    expect(after.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'stop' });
  });
});
