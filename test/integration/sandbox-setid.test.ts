// Set-uid from the sandbox (issue 40, item 5), with the real bubblewrap: `cp /bin/bash x && chmod
// 4755 x` left a set-uid program of the app's user in a workspace other users can reach. The
// seccomp filter refuses chmod and file creation with a set-uid or set-gid bit (EPERM), and the
// bits a command leaves anyway are cleared after the call.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed } from '../../src/main/node/tools/bash-sandbox';
import { defaultSandboxHost } from '../../src/main/node/tools/executables';

let workspace: string;
const host = defaultSandboxHost();

beforeAll(() => {
  workspace = join(realpathSync(mkdtempSync(join(tmpdir(), 'resolute-setid-'))), 'ws');
  mkdirSync(workspace);
});
afterAll(() => rmSync(join(workspace, '..'), { recursive: true, force: true }));

const bash = (command: string) =>
  runSandboxed({ command, workspace, timeoutMs: 20_000, network: false, hidden: [] }, host);

/** Every file under the workspace with a set-uid or set-gid bit. */
function setIdFiles(dir = workspace): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return setIdFiles(path);
    return (lstatSync(path).mode & 0o6000) !== 0 ? [path] : [];
  });
}

describe('set-uid and set-gid bits (issue 40, item 5)', () => {
  it('chmod u+s / g+s of a copied shell fails with EPERM and leaves no set-id file', async () => {
    const r = await bash(
      'cp /bin/bash x && chmod 4755 x; echo "suid=$?"; chmod g+s x; echo "sgid=$?"; chmod 6755 x; echo "both=$?"; chmod 755 x; echo "plain=$?"',
    );
    expect(r.text).toMatch(/suid=1/);
    expect(r.text).toMatch(/sgid=1/);
    expect(r.text).toMatch(/both=1/);
    expect(r.text).toMatch(/Operation not permitted/);
    expect(r.text).toMatch(/plain=0/);
    expect(setIdFiles()).toEqual([]);
    expect(lstatSync(join(workspace, 'x')).mode & 0o7777).toBe(0o755);
  });

  it('fchmod, fchmodat and a file created with the bits are refused too; none is left', async () => {
    const r = await bash(
      [
        `python3 -c 'import os; f=os.open("y", os.O_CREAT|os.O_WRONLY, 0o755); os.fchmod(f, 0o4755)' 2>&1 | tail -1`,
        `python3 -c 'import os; os.chmod("y", 0o2755)' 2>&1 | tail -1`,
        `python3 -c 'import os; os.open("z", os.O_CREAT|os.O_WRONLY, 0o4755)' 2>&1 | tail -1`,
        'install -m 4755 /bin/true w; echo "install=$?"',
      ].join('; '),
    );
    expect(r.text.match(/PermissionError: \[Errno 1\] Operation not permitted/g)).toHaveLength(3);
    expect(r.text).toMatch(/install=1/);
    expect(setIdFiles()).toEqual([]);
  });

  it('ordinary modes still work: chmod +x, a sticky folder', async () => {
    const r = await bash('touch s && chmod +x s && mkdir -p d && chmod 1777 d && stat -c %a s d');
    expect(r.text).toBe('755\n1777');
  });
});
