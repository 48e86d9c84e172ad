// The git guard against symbolic links (issue 40, item 3), with the real bash sandbox
// (bubblewrap): a command must not leave a repository whose config the person's next `git status`,
// run outside the sandbox, would obey. Four routes went round the guard by a link: `sub/.git` as a
// link to a bare repository, a new `.git/commondir` naming a linked folder, `gitdir: ../g3` where
// g3 is a link, and a top-level `.git` link. Each plants `core.fsmonitor = touch MARKER`; the test
// then runs git itself, outside the sandbox, and the marker must not appear.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed } from '../../src/main/node/tools/bash-sandbox';
import { defaultSandboxHost } from '../../src/main/node/tools/executables';

let root: string;
const host = defaultSandboxHost();
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-gitlinks-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: gitEnv });
}

/** A fresh workspace, with a committed repository at its top when asked. */
function workspace(name: string, withRepo: boolean): string {
  const ws = join(root, name);
  mkdirSync(ws);
  if (withRepo) {
    git(ws, 'init', '-q', '.');
    git(ws, 'config', 'user.email', 'me@example.com');
    git(ws, 'config', 'user.name', 'Me');
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    git(ws, 'add', 'a.txt');
    git(ws, 'commit', '-qm', 'one');
  }
  return ws;
}

/** Runs the hostile command in the sandbox; whether the call is refused or not, what counts is after. */
async function attack(ws: string, command: string): Promise<string> {
  try {
    return (await runSandboxed({ command, workspace: ws, timeoutMs: 20_000, network: false, hidden: [] }, host)).text;
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** The person's next `git status` in `dir`, outside the sandbox: did it run the planted command? */
function personsGitRan(dir: string, marker: string): boolean {
  spawnSync('git', ['status', '--short'], { cwd: dir, encoding: 'utf8', env: gitEnv });
  return existsSync(marker);
}

/** Makes a git folder NAME (not called .git) whose config runs `touch MARKER` on git status. */
const plantedGitDir = (name: string, marker: string) =>
  `git init -q --bare ${name} && git -C ${name} config core.bare false && git -C ${name} config core.fsmonitor "touch ${marker}"`;

describe('the git guard follows links to the real git folder (issue 40, item 3)', () => {
  it('sub/.git as a link to a bare repository', async () => {
    const ws = workspace('route-1', true);
    const marker = join(root, 'marker-1');
    const out = await attack(
      ws,
      `${plantedGitDir('bare', marker)} && mkdir sub && ln -s ../bare sub/.git && echo planted`,
    );
    expect(personsGitRan(join(ws, 'sub'), marker)).toBe(false);
    expect(out).toMatch(/^refused: .*bare \(core\.fsmonitor\)/);
  });

  it('a new .git/commondir naming a linked folder', async () => {
    const ws = workspace('route-2', true);
    const marker = join(root, 'marker-2');
    const out = await attack(
      ws,
      `${plantedGitDir('fake', marker)} && cp -r .git/objects .git/refs .git/HEAD fake/ && ln -s fake lnk && echo ../lnk > .git/commondir; echo "commondir=$?"`,
    );
    expect(personsGitRan(ws, marker)).toBe(false);
    // commondir is bound read-only (created as "." — the git folder itself — when it was missing).
    expect(out).toMatch(/commondir=[1-9]/);
    expect(readFileSync(join(ws, '.git', 'commondir'), 'utf8')).toBe('.\n');
    // The person's repository still works, with its own history.
    expect(git(ws, 'log', '--format=%s')).toBe('one\n');
  });

  it('a .git file whose gitdir is a link (gitdir: ../g3)', async () => {
    const ws = workspace('route-3', true);
    const marker = join(root, 'marker-3');
    const out = await attack(
      ws,
      `${plantedGitDir('g3real', marker)} && ln -s g3real g3 && mkdir sub && echo "gitdir: ../g3" > sub/.git && echo planted`,
    );
    expect(personsGitRan(join(ws, 'sub'), marker)).toBe(false);
    expect(out).toMatch(/^refused: .*g3real \(core\.fsmonitor\)/);
  });

  it('a top-level .git link in a workspace without a repository', async () => {
    const ws = workspace('route-4', false);
    const marker = join(root, 'marker-4');
    const out = await attack(ws, `${plantedGitDir('evil', marker)} && ln -s evil .git && echo planted`);
    expect(personsGitRan(ws, marker)).toBe(false);
    expect(out).toMatch(/^refused: .*evil \(core\.fsmonitor\)/);
  });

  it('a .git link that was there before: its real folder is protected like a .git folder', async () => {
    const ws = workspace('route-5', false);
    const marker = join(root, 'marker-5');
    git(ws, 'init', '-q', '--bare', 'real');
    git(ws, 'config', '--file', 'real/config', 'core.bare', 'false');
    execFileSync('ln', ['-s', 'real', join(ws, '.git')]);
    const config = readFileSync(join(ws, 'real', 'config'), 'utf8');
    const out = await attack(ws, `git config core.fsmonitor "touch ${marker}"; echo "config=$?"`);
    expect(out).toMatch(/config=[1-9]/);
    expect(readFileSync(join(ws, 'real', 'config'), 'utf8')).toBe(config);
    expect(personsGitRan(ws, marker)).toBe(false);
  });

  it('a new .git link or file naming a folder outside the workspace is moved aside', async () => {
    const ws = workspace('route-6', false);
    const outside = join(root, 'outside-git');
    git(root, 'init', '-q', '--bare', outside);
    const out = await attack(ws, `ln -s ${outside} .git && mkdir sub && echo "gitdir: ${outside}" > sub/.git`);
    expect(out).toMatch(/^refused: .*\.git \(a link naming .*outside-git\).*sub\/\.git \(a file naming/);
    expect(existsSync(join(ws, '.git'))).toBe(false);
    expect(existsSync(join(ws, 'sub', '.git'))).toBe(false);
  });
});
