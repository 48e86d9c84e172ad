// Confinement on a real file system (src/main/node/tools/workspace-fs.ts): symbolic links in any
// component — chains of them, the last component, dangling ones — must stay inside the workspace;
// a file to be written must not be a hard link; the workspace folder itself is checked.
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import {
  checkWorkspaceChoice,
  defaultWorkspace,
  openWorkspace,
  resolveInWorkspace,
} from '../../../../src/main/node/tools/workspace-fs';

let root: string;
let ws: string;
let outside: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-wsfs-')));
  ws = join(root, 'ws');
  outside = join(root, 'outside');
  mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'src', 'a.txt'), 'inside');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(outside, join(ws, 'out-dir')); // a folder link leading out
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'secret-link')); // a file link leading out
  symlinkSync('../outside', join(ws, 'relative-out')); // relative, leading out
  symlinkSync(join(ws, 'src'), join(ws, 'src-link')); // inside: allowed
  symlinkSync(join(ws, 'out-dir'), join(ws, 'chain-1')); // chain: chain-1 → out-dir → outside
  symlinkSync(join(ws, 'chain-1'), join(ws, 'chain-2'));
  symlinkSync(join(ws, 'src-link'), join(ws, 'inner-chain')); // chain that stays inside
  symlinkSync(join(outside, 'not-yet.txt'), join(ws, 'dangling-out'));
  symlinkSync(join(ws, 'missing.txt'), join(ws, 'dangling-in'));
  symlinkSync(join(ws, 'src', 'deep'), join(ws, 'src', 'deep', 'loop-up')); // a link to its own parent
  writeFileSync(join(outside, 'linked.txt'), 'shared');
  linkSync(join(outside, 'linked.txt'), join(ws, 'hard.txt'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function refusal(input: string, forWrite: boolean): ToolFailure {
  try {
    resolveInWorkspace(ws, input, forWrite);
  } catch (error) {
    if (error instanceof ToolFailure) return error;
    throw error;
  }
  throw new Error(`${input} was not refused`);
}

describe('resolveInWorkspace', () => {
  it.each([
    ['out-dir/secret.txt', false],
    ['out-dir/new.txt', true],
    ['secret-link', false],
    ['secret-link', true],
    ['relative-out/secret.txt', false],
    ['chain-2/secret.txt', false],
    ['chain-2/x/y/z.txt', true],
    ['dangling-out', true],
    ['dangling-out', false],
    ['src/../out-dir/secret.txt', false],
    ['hard.txt', true],
    ['../outside/secret.txt', false],
    ['<outside>/secret.txt', false],
  ])('refuses %s (write: %s) as sandbox_security', (given, forWrite) => {
    const input = given.replace('<outside>', outside);
    const failure = refusal(input, forWrite);
    expect(failure.category).toBe('sandbox_security');
    expect(failure.target).toBe(input);
  });

  it('follows links that stay inside, to their real path', () => {
    expect(resolveInWorkspace(ws, 'src-link/a.txt', false).absolute).toBe(join(ws, 'src', 'a.txt'));
    expect(resolveInWorkspace(ws, 'inner-chain/a.txt', true).absolute).toBe(join(ws, 'src', 'a.txt'));
    expect(resolveInWorkspace(ws, 'src/deep/loop-up/loop-up/a', true).absolute).toBe(join(ws, 'src', 'deep', 'a'));
  });

  it('gives a path for a file that does not exist yet, under a real folder', () => {
    const path = resolveInWorkspace(ws, 'src-link/new/file.txt', true);
    expect(path).toMatchObject({ absolute: join(ws, 'src', 'new', 'file.txt'), stat: null });
  });

  it('reads a hard-linked file, but will not write one', () => {
    expect(resolveInWorkspace(ws, 'hard.txt', false).stat?.nlink).toBe(2);
    expect(refusal('hard.txt', true).message).toMatch(/2 hard links/);
  });

  it('will not write through a dangling link even inside', () => {
    expect(() => resolveInWorkspace(ws, 'dangling-in', true)).toThrow(/does not exist/);
  });
});

describe('the workspace folder', () => {
  it('creates the default workspace on first use, not another', () => {
    const fresh = join(root, 'fresh', 'Resolute');
    expect(openWorkspace(fresh, true)).toBe(fresh);
    expect(() => openWorkspace(join(root, 'gone'), false)).toThrow(ToolFailure);
    try {
      openWorkspace(join(root, 'gone'), false);
    } catch (error) {
      expect(error).toMatchObject({
        category: 'sandbox',
        message: expect.stringMatching(/does not exist.*Choose another folder/),
      });
    }
  });

  it('a file is not a usable workspace', () => {
    expect(() => openWorkspace(join(ws, 'src', 'a.txt'), false)).toThrow(/not a folder/);
  });

  it('defaults to <Documents or home>/Resolute', () => {
    const home = join(root, 'home');
    mkdirSync(home);
    expect(defaultWorkspace(home)).toBe(join(home, 'Resolute'));
    mkdirSync(join(home, 'Documents'));
    expect(defaultWorkspace(home)).toBe(join(home, 'Documents', 'Resolute'));
  });

  it.each([
    ['relative', 'ws', /not an absolute path/],
    ['missing', '/no/such/folder', /does not exist/],
    ['the root', '/', /root of the file system/],
  ])('refuses a chosen folder that is %s', (_name, path, reason) => {
    expect(() => checkWorkspaceChoice(path, join(root, 'data'))).toThrow(reason);
  });

  it('refuses a folder that holds the data folder or lies inside it, accepts one beside it', () => {
    const data = join(root, 'data');
    mkdirSync(join(data, 'logs'), { recursive: true });
    mkdirSync(join(root, 'data-other'), { recursive: true });
    expect(() => checkWorkspaceChoice(root, data)).toThrow(/holds Resolute's data folder/);
    expect(() => checkWorkspaceChoice(data, data)).toThrow(/data folder/);
    expect(() => checkWorkspaceChoice(join(data, 'logs'), data)).toThrow(/inside Resolute's data folder/);
    expect(checkWorkspaceChoice(ws, data)).toBe(ws);
    expect(checkWorkspaceChoice(join(root, 'data-other'), data)).toBe(join(root, 'data-other'));
  });
});
