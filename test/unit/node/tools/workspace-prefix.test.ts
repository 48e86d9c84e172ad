// Confinement against a sibling folder that shares the workspace's name as a prefix
// (`<ws>-private/` beside `<ws>/`), on a real file system: a link from the workspace into it is
// outside, for reading and for writing, however it is written (absolute, relative, to a folder or a
// file). A "starts with the workspace path" check without the separator would let it through.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import { resolveInWorkspace } from '../../../../src/main/node/tools/workspace-fs';

let root: string;
let ws: string;
let sibling: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-prefix-')));
  ws = join(root, 'ws');
  sibling = `${ws}-private`;
  mkdirSync(ws);
  mkdirSync(sibling);
  writeFileSync(join(sibling, 'secret.txt'), 'not for the model');
  symlinkSync(sibling, join(ws, 'peek')); // absolute, to the sibling folder
  symlinkSync('../ws-private', join(ws, 'peek-relative')); // relative, to the sibling folder
  symlinkSync(join(sibling, 'secret.txt'), join(ws, 'secret-link')); // to a file in it
  symlinkSync(join(sibling, 'new.txt'), join(ws, 'dangling-into-sibling')); // to a file not there yet
  mkdirSync(join(ws, 'ws-private-in-ws')); // a real folder inside with a look-alike name: fine
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function refusal(input: string, forWrite: boolean): unknown {
  try {
    return resolveInWorkspace(ws, input, forWrite);
  } catch (error) {
    return error;
  }
}

describe('a sibling folder sharing the workspace prefix', () => {
  it.each([
    ['peek/secret.txt', false],
    ['peek/secret.txt', true],
    ['peek/new.txt', true],
    ['peek-relative/secret.txt', false],
    ['peek-relative/new.txt', true],
    ['secret-link', false],
    ['secret-link', true],
    ['dangling-into-sibling', true],
  ] as const)('refuses %s (write: %s) as outside the workspace', (input, forWrite) => {
    const error = refusal(input, forWrite);
    expect(error).toBeInstanceOf(ToolFailure);
    expect((error as ToolFailure).category).toBe('sandbox_security');
  });

  it('still allows what really is inside, look-alike names included', () => {
    expect(resolveInWorkspace(ws, 'ws-private-in-ws/a.txt', true).absolute).toBe(join(ws, 'ws-private-in-ws', 'a.txt'));
  });
});
