// Which git settings a repository that a sandboxed command created may hold (docs/tools.md, "The
// bash sandbox"): git runs commands named in its config (core.fsmonitor, core.pager, aliases,
// filters, include.path…) when the person later runs git outside the sandbox. An allow-list, not a
// deny-list: git grows new ways to run commands, and a setting it does not know here is refused.
// Pure; src/main/node/tools/git-guard.ts reads the files.

/** Keys as `section.key` or `section.*.key` (a subsection), lower case. */
const ALLOWED = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'extensions.objectformat',
  'extensions.refstorage',
  'user.name',
  'user.email',
  'init.defaultbranch',
  'branch.*.remote',
  'branch.*.merge',
  'branch.*.rebase',
  'remote.*.url',
  'remote.*.pushurl',
  'remote.*.fetch',
  'remote.*.tagopt',
  'submodule.*.url',
  'submodule.*.active',
  'pull.rebase',
  'fetch.prune',
  'i18n.commitencoding',
]);

/** The settings of a git config text that are not allowed (or lines that cannot be read), for the message. */
export function unsafeGitSettings(text: string): string[] {
  const refused: string[] = [];
  let section: string | null = null;
  let sub = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (header) {
      const parts = header[1].toLowerCase().split('.');
      section = parts[0];
      sub = parts.length > 1 || /"/.test(line);
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(line);
    if (!entry || section === null) {
      refused.push(line);
      continue;
    }
    const key = `${section}.${sub ? '*.' : ''}${entry[1].toLowerCase()}`;
    if (!ALLOWED.has(key)) refused.push(key);
    // A value continued on the next line could hide anything: refuse it.
    if (line.endsWith('\\')) refused.push(`${key} (continued line)`);
  }
  return refused;
}

/** Hook files git would run: anything in hooks/ but git's own `*.sample` files. */
export function unsafeHooks(names: readonly string[]): string[] {
  return names.filter((name) => !name.endsWith('.sample'));
}
