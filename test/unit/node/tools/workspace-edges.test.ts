// Confinement and the workspace choice at their edges, on a real file system (workspace-fs.ts):
// a link inside the workspace to an existing file may be written through, one to a missing file
// may be read (nothing there) but not written, one to a missing folder may hold a new file; a path
// through a regular file is an error, not "missing"; the choice of a folder and --workspace.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkWorkspaceChoice,
  defaultWorkspace,
  resolveInWorkspace,
  runWorkspace,
} from '../../../../src/main/node/tools/workspace-fs';

let root: string;
let ws: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-ws-edges-')));
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.txt'), 'inside');
  symlinkSync(join(ws, 'src', 'a.txt'), join(ws, 'file-link'));
  symlinkSync(join(ws, 'missing.txt'), join(ws, 'dangling-file'));
  symlinkSync(join(ws, 'missing-dir'), join(ws, 'dangling-dir'));
  symlinkSync(join(root, 'elsewhere'), join(ws, 'out-link'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('links inside the workspace', () => {
  it('a link to an existing file inside is written through to that file', () => {
    expect(resolveInWorkspace(ws, 'file-link', true).absolute).toBe(join(ws, 'src', 'a.txt'));
  });

  it('a dangling link inside may be read (nothing is there) but not written', () => {
    expect(resolveInWorkspace(ws, 'dangling-file', false)).toMatchObject({
      absolute: join(ws, 'missing.txt'),
      stat: null,
    });
    expect(() => resolveInWorkspace(ws, 'dangling-file', true)).toThrow(/does not exist/);
  });

  it('a link to a missing folder inside may hold a new file', () => {
    expect(resolveInWorkspace(ws, 'dangling-dir/new.txt', true)).toMatchObject({
      absolute: join(ws, 'missing-dir', 'new.txt'),
      stat: null,
    });
  });

  it('a link leading out is named in the refusal', () => {
    expect(() => resolveInWorkspace(ws, 'out-link/x', false)).toThrow(
      `out-link/x goes through the symbolic link out-link to ${join(root, 'elsewhere')}`,
    );
  });

  it('a path through a regular file is an error, not a missing file', () => {
    expect(() => resolveInWorkspace(ws, 'src/a.txt/x', true)).toThrow(/a\.txt is not a folder/);
  });
});

describe('the workspace folder', () => {
  it('a file is not a folder to work in', () => {
    expect(() => checkWorkspaceChoice(join(ws, 'src', 'a.txt'), join(root, 'data'))).toThrow(
      `${join(ws, 'src', 'a.txt')} is not a folder.`,
    );
  });

  it('a folder that would hold a data folder not created yet is refused too', () => {
    expect(() => checkWorkspaceChoice(ws, join(ws, 'not-yet', 'data'))).toThrow(/data folder/);
  });

  it('--workspace: absent is the default folder; a new one is created with its parents; a bad one is named', () => {
    expect(runWorkspace(undefined, join(root, 'data'))).toBe(defaultWorkspace());
    const fresh = join(root, 'new', 'nested');
    expect(runWorkspace(relative(process.cwd(), fresh), join(root, 'data'))).toBe(fresh);
    const error = (() => {
      try {
        runWorkspace(ws, join(ws, 'data'));
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/^--workspace: .*data folder/);
    expect(error?.cause).toBeInstanceOf(Error);
  });
});
