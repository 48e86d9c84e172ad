// A FIFO in the workspace (issue 40, item 7; src/main/node/tools/confined-io.ts): `read` and `edit`
// of one used to block in open() until a writer came — on the main thread, freezing every window.
// Now they refuse it at once, and a FIFO swapped in after the check is opened without waiting and
// refused too. Real FIFOs (mkfifo). If the old blocking came back, a release valve (a writer that
// opens the FIFO after 10 s) lets the test end and fail instead of hanging the run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfined } from '../../../../src/main/node/tools/confined-io';
import { runEdit } from '../../../../src/main/node/tools/edit-tool';
import { runRead } from '../../../../src/main/node/tools/read-tool';
import { readProjectInstructions } from '../../../../src/main/node/tools/project-instructions';
import { resolveInWorkspace } from '../../../../src/main/node/tools/workspace-fs';

let ws: string;
const valves: ChildProcess[] = [];

function mkfifo(name: string): string {
  const path = join(ws, name);
  const made = spawnSync('mkfifo', [path], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  // The release valve: only a blocked open() would ever meet this writer.
  const valve = spawn('/bin/sh', ['-c', 'sleep 10; echo released > "$0"', path], { stdio: 'ignore' });
  valves.push(valve);
  return path;
}

/** No writer has opened the FIFO: the valve is still waiting, so nothing was released. */
const nothingReleased = () => valves.every((valve) => valve.exitCode === null && valve.signalCode === null);

beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-fifo-')));
});
afterEach(() => {
  for (const valve of valves.splice(0)) valve.kill('SIGKILL');
  rmSync(ws, { recursive: true, force: true });
});

describe('a FIFO in the workspace', () => {
  it('read refuses it at once, saying what it is', () => {
    mkfifo('pipe');
    expect(() => runRead(ws, { path: 'pipe' })).toThrow(
      'pipe is a named pipe (FIFO); the file tools read regular files only.',
    );
    expect(nothingReleased()).toBe(true);
  });

  it('edit refuses it at once', () => {
    mkfifo('pipe');
    expect(() => runEdit(ws, { path: 'pipe', edits: [{ oldText: 'a', newText: 'b' }] })).toThrow(/named pipe \(FIFO\)/);
    expect(nothingReleased()).toBe(true);
  });

  it('one swapped in after the check is opened without waiting and refused', () => {
    writeFileSync(join(ws, 'notes.txt'), 'plain\n');
    const checked = resolveInWorkspace(ws, 'notes.txt', false);
    unlinkSync(join(ws, 'notes.txt'));
    mkfifo('notes.txt');
    expect(() => readConfined(ws, checked, 'notes.txt', () => {})).toThrow(/named pipe \(FIFO\)/);
    expect(nothingReleased()).toBe(true);
  });

  it('an AGENTS.md that is a FIFO is left out, and the next prompt is not held', () => {
    mkfifo('AGENTS.md');
    writeFileSync(join(ws, 'CLAUDE.md'), 'be brief\n');
    expect(readProjectInstructions(ws)).toMatchObject({ file: 'CLAUDE.md', text: 'be brief\n' });
    expect(nothingReleased()).toBe(true);
  });

  it('a regular file still reads', () => {
    writeFileSync(join(ws, 'notes.txt'), 'plain\n');
    expect(runRead(ws, { path: 'notes.txt' }).text).toBe('plain\n');
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('plain\n');
  });
});
