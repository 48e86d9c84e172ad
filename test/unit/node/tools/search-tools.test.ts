// find and grep against the holes of issue 24 (src/main/node/tools/find-tool.ts, grep-tool.ts, executables.ts):
// a workspace's own `rg` never runs, whatever PATH holds (an empty or relative entry first), and
// grep's context is capped and counts toward the output cap on a large generated file; how ripgrep
// is confined (issue 40: never --follow, the bubblewrap and sandbox-exec plans). Real
// ripgrep, real files; PATH is changed before the first search, so the resolution under test is
// the one that is cached.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BYTES } from '../../../../src/main/node/tools/output-caps';
import { runFind } from '../../../../src/main/node/tools/find-tool';
import { runGrep } from '../../../../src/main/node/tools/grep-tool';
import { BASE_ARGS } from '../../../../src/main/node/tools/ripgrep';
import { bubblewrapSearchArgs, searchPlan } from '../../../../src/main/node/tools/search-sandbox';

let root: string;
let ws: string;
let marker: string;
const savedPath = process.env.PATH;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-search-')));
  ws = join(root, 'ws');
  marker = join(root, 'planted-rg-ran');
  mkdirSync(join(ws, 'bin'), { recursive: true });
  const fake = `#!/bin/sh\necho ran > ${marker}\necho fake.txt\n`;
  for (const path of [join(ws, 'rg'), join(ws, 'bin', 'rg')]) {
    writeFileSync(path, fake);
    chmodSync(path, 0o755);
  }
  writeFileSync(join(ws, 'real.txt'), 'needle\n');
  // An empty entry, `.` and a relative entry all mean "the working directory" (the workspace).
  process.env.PATH = `:.:bin:${savedPath ?? '/usr/bin'}`;
});

afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(root, { recursive: true, force: true });
});

describe('the rg that runs (issue 24, point 3)', () => {
  it('is never the workspace’s own, with an empty, "." or relative PATH entry first', async () => {
    const found = await runFind(ws, { pattern: '*.txt' });
    const grepped = await runGrep(ws, { pattern: 'needle' });
    const inBin = await runFind(join(ws, 'bin'), { pattern: '*' });
    expect(existsSync(marker)).toBe(false);
    expect(found.text).toBe('real.txt');
    expect(grepped.text).toBe('real.txt:1: needle');
    expect(inBin.text).toBe('rg');
  });
});

describe('grep context (issue 24, lower items)', () => {
  let big: string;
  beforeAll(() => {
    big = join(ws, 'big');
    mkdirSync(big);
    // 400 000 lines (~6 MB) with one match in the middle, and a file where every line matches.
    const lines = Array.from({ length: 400_000 }, (_, i) => (i === 200_000 ? 'the needle' : `filler ${i}`));
    writeFileSync(join(big, 'one-match.txt'), `${lines.join('\n')}\n`);
    writeFileSync(join(big, 'all-match.txt'), `${Array.from({ length: 400_000 }, (_, i) => `hay ${i}`).join('\n')}\n`);
  });

  it('a huge context is capped at 20 lines either side', async () => {
    const { text } = await runGrep(ws, { pattern: 'needle', path: 'big/one-match.txt', context: 1_000_000 });
    const shown = text.split('\n').filter((line) => /^big\/one-match\.txt[-:]/.test(line));
    expect(shown).toHaveLength(41);
    expect(shown[0]).toBe('big/one-match.txt-199981- filler 199980');
    expect(shown[20]).toBe('big/one-match.txt:200001: the needle');
    expect(shown[40]).toBe('big/one-match.txt-200021- filler 200020');
  });

  it('context lines count toward the output cap: a huge limit and context still give a capped result', async () => {
    const { text, details } = await runGrep(ws, {
      pattern: 'hay',
      path: 'big/all-match.txt',
      context: 20,
      limit: 1_000_000,
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_BYTES + 300);
    expect(details).toMatchObject({ truncated: true });
    expect(text).toMatch(/limit reached/);
  });
});

describe('how ripgrep is confined (issue 40, item 2)', () => {
  it('is never told to follow links', () => {
    expect(BASE_ARGS).not.toContain('--follow');
    expect(BASE_ARGS).not.toContain('-L');
  });

  it('sees the workspace read-only and the program folders only, the hidden folders pushed after every bind', () => {
    const args = bubblewrapSearchArgs(['/data'], { rg: '/opt/rg/rg', workspace: '/ws', cwd: '/ws/sub' });
    const binds = args.flatMap((arg, i) => (arg === '--ro-bind' || arg === '--ro-bind-try' ? [args[i + 1]] : []));
    expect(binds).toEqual([
      '/usr',
      '/lib',
      '/lib32',
      '/lib64',
      '/libx32',
      '/etc/ld.so.cache',
      '/nix/store',
      '/opt/rg/rg',
      '/ws',
    ]);
    expect(args).not.toContain('--bind');
    expect(args.indexOf('--tmpfs')).toBeGreaterThan(args.lastIndexOf('--ro-bind'));
    expect(args.slice(args.indexOf('--chdir'), args.indexOf('--chdir') + 2)).toEqual(['--chdir', '/ws/sub']);
    expect(args).toEqual(expect.arrayContaining(['--unshare-net', '--unshare-pid', '--cap-drop', 'ALL', '--clearenv']));
    expect(args.at(-1)).toBe('--');
  });

  it('on macOS runs under sandbox-exec with the hidden folders denied; on Windows as it is', () => {
    const run = { rg: '/opt/homebrew/bin/rg', args: ['--files'], workspace: '/ws', cwd: '/ws/sub' };
    const mac = searchPlan({ platform: 'darwin', bwrap: null, hidden: ['/data'] }, run);
    expect(mac.command).toBe('/usr/bin/sandbox-exec');
    expect(mac.args[0]).toBe('-p');
    expect(mac.args[1]).toContain('(deny file-read* (subpath "/data"))');
    expect(mac.args.slice(2)).toEqual(['/opt/homebrew/bin/rg', '--files']);
    expect(mac.cwd).toBe('/ws/sub');
    expect(searchPlan({ platform: 'win32', bwrap: null, hidden: [] }, run)).toEqual({
      command: '/opt/homebrew/bin/rg',
      args: ['--files'],
      cwd: '/ws/sub',
    });
  });

  it('refuses to search unconfined on Linux without bubblewrap, saying how to install it', async () => {
    await expect(runGrep(ws, { pattern: 'needle' }, { platform: 'linux', bwrap: null })).rejects.toThrow(
      /bubblewrap \(bwrap\) is not installed/,
    );
  });
});
