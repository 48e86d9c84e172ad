// A kill -9 in the middle of an undo (docs/file-history.md, "Undo"): a child process
// (fixtures/undo-runner.ts) undoes a turn that wrote four files and is SIGKILLed once the second
// file is in place, before its journal step says so. After the restart every file is either its
// version from before the turn or the turn's own — never a mix, never a temporary left in its
// place — and the undo's record says which files were done; undoing again finishes the rest.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { startServices } from './fixtures/services';

const HERE = dirname(fileURLToPath(import.meta.url));
const RUNNER = join(HERE, 'fixtures', 'undo-runner.ts');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-undo-kill-')));
const workspace = join(root, 'ws');
const dataDir = join(root, 'data');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The app on this test's data folder and workspace, `write`, `edit` and `bash` never asking. */
const start = async () => (await startServices({ tools: { approval: 'auto' } }, { dataDir, workspace })).services;

/** Runs the child until it says a file is placed, then kills it with SIGKILL. */
function undoUntilKilled(sessionId: string, turnId: string): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, join(dataDir, 'history.db'), sessionId, turnId], {
    cwd: resolve(HERE, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('placed')) child.kill('SIGKILL');
  });
  return new Promise((done, fail) =>
    child.once('exit', (code, signal) => (signal ? done(signal) : fail(new Error(`exited ${code}: ${stderr}`)))),
  );
}

it('a kill -9 during an undo leaves every file before or after, and the record says which', async () => {
  mkdirSync(workspace);
  const names = ['f1.txt', 'f2.txt', 'f3.txt', 'f4.txt'];
  for (const name of names) writeFileSync(join(workspace, name), `before ${name}\n`);
  let services = await start();
  const tool = (name: string) => `tool:write:${JSON.stringify({ path: name, content: `after ${name}\n` })}`;
  services.simulator!.setScript([...names.map(tool), 'ok'].join(', '));
  await services.session.prompt('rewrite four files');
  const sessionId = services.session.sessionId;
  const turnId = services.history.getSession(sessionId)!.turns[0].id;
  await services.dispose();

  expect(await undoUntilKilled(sessionId, turnId)).toBe('SIGKILL');

  services = await start();
  try {
    const contents = names.map((name) => readFileSync(join(workspace, name), 'utf8'));
    for (const [i, text] of contents.entries()) expect([`before ${names[i]}\n`, `after ${names[i]}\n`]).toContain(text);
    expect(readdirSync(workspace).sort()).toEqual(names);
    const [record] = services.domains.files.changes(sessionId).undos;
    expect(record.state).toBe('interrupted');
    const done = record.steps.filter((s) => s.state === 'done').map((s) => s.path);
    // Undone newest first: f4 and f3 were placed (f3's step was not marked when the kill came).
    expect(done.sort()).toEqual(['f3.txt', 'f4.txt']);
    for (const step of record.steps) {
      const text = readFileSync(join(workspace, step.path), 'utf8');
      expect(text).toBe(step.state === 'done' ? `before ${step.path}\n` : `after ${step.path}\n`);
    }
    // The rest is undone by asking again: f1 and f2 only.
    const rest = services.domains.files.undo({ sessionId, turnId });
    expect(rest.files.map((f) => f.path).sort()).toEqual(['f1.txt', 'f2.txt']);
    expect(names.map((name) => readFileSync(join(workspace, name), 'utf8'))).toEqual(
      names.map((name) => `before ${name}\n`),
    );
  } finally {
    await services.dispose();
  }
});
