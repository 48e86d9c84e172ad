// Huge inputs the tools must not swallow whole (issue 40, item 12): a 300 MB AGENTS.md is read only
// up to its cap before each prompt (src/main/node/tools/project-instructions.ts, counted by the
// bytes this process read, /proc/self/io), and an edit's oldText that occurs once per byte of a
// 60 MB one-line file is "not unique" without listing every place (src/main/node/tools/edit-apply.ts;
// run in a child Node with a 200 MB heap, where the old list of 60 million places ran out).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSTRUCTIONS_CAP_BYTES, readProjectInstructions } from '../../../../src/main/node/tools/project-instructions';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-big-')));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

/** Bytes this process has read through read(2) and the like so far. */
const bytesRead = (): number => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

describe('a 300 MB AGENTS.md', () => {
  it('is read only up to the cap, and cut there with the note', () => {
    const path = join(ws, 'AGENTS.md');
    writeFileSync(path, 'Always answer in haiku.\n'.repeat(4096)); // ~98 KB of text…
    truncateSync(path, 300 * 1024 * 1024); // …then a sparse 300 MB: costs no disk
    const before = bytesRead();
    const instructions = readProjectInstructions(ws);
    const read = bytesRead() - before;
    expect(read).toBeLessThan(1024 * 1024);
    expect(instructions).toMatchObject({ file: 'AGENTS.md', truncated: true, capBytes: INSTRUCTIONS_CAP_BYTES });
    expect(instructions?.text.startsWith('Always answer in haiku.\n')).toBe(true);
    expect(Buffer.byteLength(instructions?.text ?? '')).toBeLessThanOrEqual(INSTRUCTIONS_CAP_BYTES);
    expect(instructions?.text.endsWith('haiku.')).toBe(true);
  });

  it('one just at the cap is whole, not cut', () => {
    const line = 'x'.repeat(63) + '\n';
    writeFileSync(join(ws, 'AGENTS.md'), line.repeat(INSTRUCTIONS_CAP_BYTES / 64));
    expect(readProjectInstructions(ws)).toMatchObject({
      truncated: false,
      text: line.repeat(INSTRUCTIONS_CAP_BYTES / 64),
    });
  });
});

describe('edit on a 60 MB one-line file', () => {
  it('an oldText found at every byte is "not unique", within a 200 MB heap', () => {
    const script = `
      import { applyEdits } from './src/main/node/tools/edit-apply.ts';
      const outcome = applyEdits('a'.repeat(60_000_000), [{ oldText: 'a', newText: 'b' }], 'big.txt');
      console.log(JSON.stringify(outcome));`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--max-old-space-size=200', '--input-type=module', '-e', script],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    expect(child.stderr).not.toMatch(/heap out of memory/);
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({
      ok: false,
      editIndex: 0,
      reason: 'oldText occurs more than once in big.txt; it must be unique — add surrounding lines to it.',
    });
  });
});
