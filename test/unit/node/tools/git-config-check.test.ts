// The allow-list for a git repository a sandboxed command created (src/main/core/tools/
// git-config-check.ts): what `git init`, `git remote add` and `git config user.*` write passes;
// anything that can run a command (or that the check cannot read) is named.
import { describe, expect, it } from 'vitest';
import { unsafeGitSettings, unsafeHooks } from '../../../../src/main/node/tools/git-config-check';

describe('unsafeGitSettings', () => {
  it('passes what git init, git remote add and git config user.* write', () => {
    const config = [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tfilemode = true',
      '\tbare = false',
      '\tlogallrefupdates = true',
      '[user]',
      '\tname = Me',
      '\temail = me@example.com',
      '[remote "origin"]',
      '\turl = https://example.com/repo.git',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '[branch "main"]',
      '\tremote = origin',
      '\tmerge = refs/heads/main',
      '# a comment',
    ].join('\n');
    expect(unsafeGitSettings(config)).toEqual([]);
  });

  it.each([
    ['[core]\n\tfsmonitor = sh -c "touch /tmp/x"', 'core.fsmonitor'],
    ['[core]\n\thooksPath = /tmp/hooks', 'core.hookspath'],
    ['[core]\n\tpager = evil', 'core.pager'],
    ['[alias]\n\tst = !sh -c evil', 'alias.st'],
    ['[include]\n\tpath = ../evil.cfg', 'include.path'],
    ['[includeIf "gitdir:/"]\n\tpath = evil', 'includeif.*.path'],
    ['[filter "x"]\n\tclean = evil', 'filter.*.clean'],
    ['[core.sshCommand]\n\tx = 1', 'core.*.x'],
    ['[user]\n\tname = a \\\n', 'user.name (continued line)'],
    ['garbage without a section', 'garbage without a section'],
  ])('refuses %j', (config, named) => {
    expect(unsafeGitSettings(config)).toContain(named);
  });
});

describe('unsafeHooks', () => {
  it('allows only git’s sample hooks', () => {
    expect(unsafeHooks(['pre-commit.sample', 'post-checkout', 'pre-push.sample', 'fsmonitor-watchman'])).toEqual([
      'post-checkout',
      'fsmonitor-watchman',
    ]);
  });
});
