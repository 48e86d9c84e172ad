// The bash sandbox against the holes of issue 24, with the real bubblewrap (docs/tools.md, "Threat
// model: the bash sandbox"): capabilities dropped even as root, no AF_UNIX socket to a listener
// outside, .git/config and .git/hooks read-only while commits still work, a repository the command
// creates checked after it, and a fork bomb stopped by the process limit. runSandboxed is called
// directly: these are holes of the sandbox, not of the session around it.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:net';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed, type BashRun } from '../../src/main/node/tools/bash-sandbox';
import { defaultSandboxHost } from '../../src/main/node/tools/executables';
import { ToolFailure } from '../../src/main/core/tools/tool-failure';

let root: string;
let workspace: string;
// bwrap by absolute path from PATH's absolute entries, as the app finds it.
const host = defaultSandboxHost();

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-holes-')));
  workspace = join(root, 'ws');
  mkdirSync(workspace);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function bash(command: string, extra: Partial<BashRun> = {}) {
  return runSandboxed({ command, workspace, timeoutMs: 20_000, network: false, hidden: [], ...extra }, host);
}

describe('capabilities (issue 24, point 2)', () => {
  it('has none inside, even when Resolute runs as root', async () => {
    const r = await bash('grep -E "^Cap(Eff|Prm):" /proc/self/status');
    expect(r.text).toMatch(/CapEff:\s+0000000000000000/);
    expect(r.text).toMatch(/CapPrm:\s+0000000000000000/);
  });

  it('cannot unmount the private /tmp or remount / read-write', async () => {
    const marker = join(root, 'remount-marker');
    const r = await bash(
      `umount -l /tmp; echo "umount=$?"; mount -o remount,rw /; echo "remount=$?"; echo x > ${marker}; true`,
    );
    expect(r.text).toMatch(/umount=[1-9]/);
    expect(r.text).toMatch(/remount=[1-9]/);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('Unix sockets (issue 24, point 5)', () => {
  let server: Server;
  let socketDir: string;
  let socketPath: string;
  let accepted = 0;

  beforeAll(async () => {
    // Outside the workspace, under the home folder like ~/.docker/desktop/docker.sock.
    socketDir = mkdtempSync(join(homedir(), '.resolute-sock-'));
    socketPath = join(socketDir, 'docker.sock');
    server = createServer((socket) => {
      accepted += 1;
      socket.end('answered\n');
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(socketDir, { recursive: true, force: true });
  });

  const nodeConnect = (path: string) =>
    `node -e 'const s=require("net").connect(${JSON.stringify(path)});s.on("data",d=>{process.stdout.write("got "+d);process.exit(0)});s.on("error",e=>{console.log("refused "+e.code);process.exit(7)})'`;

  it('the listener answers outside the sandbox (the check below can fail)', async () => {
    // Asynchronous: the listener is in this process.
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', nodeConnect(socketPath)], { encoding: 'utf8' });
    expect(stdout).toBe('got answered\n');
  });

  it('a command cannot connect to a listener outside the workspace, network off or on', async () => {
    accepted = 0;
    for (const network of [false, true]) {
      const r = await bash(nodeConnect(socketPath), { network });
      expect(r.text).not.toMatch(/got answered/);
      expect(r.text).toMatch(/refused E(PERM|ACCES)/);
    }
    expect(accepted).toBe(0);
  });

  it('ordinary commands still work: ls, git, node (its child processes use socketpair), python', async () => {
    const python = existsSync('/usr/bin/python3')
      ? "python3 -c \"import subprocess;print(subprocess.run(['echo','py'],capture_output=True).stdout.decode().strip())\""
      : 'echo py';
    const r = await bash(
      `ls / > /dev/null && git --version > /dev/null && node -e 'console.log(require("child_process").execFileSync("echo",["kid"]).toString().trim())' && ${python}`,
    );
    expect(r.text).toBe('kid\npy');
    expect(r.details).toMatchObject({ exitCode: 0 });
  });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

describe('.git (issue 24, point 4)', () => {
  let repo: string;
  beforeAll(() => {
    repo = join(workspace, 'repo-ws');
    mkdirSync(repo);
    git(repo, 'init', '-q', '.');
    git(repo, 'config', 'user.email', 'me@example.com');
    git(repo, 'config', 'user.name', 'Me');
    writeFileSync(join(repo, 'a.txt'), 'one\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-qm', 'one');
  });

  const inRepo = (command: string) => bash(command, { workspace: repo });

  it('config and hooks are read-only inside; the hook and fsmonitor never get in', async () => {
    const config = readFileSync(join(repo, '.git', 'config'), 'utf8');
    const r = await inRepo(
      'git config core.fsmonitor "touch /tmp/pwn"; echo "config=$?"; printf "#!/bin/sh\\n" > .git/hooks/post-checkout; echo "hook=$?"',
    );
    expect(r.text).toMatch(/config=[1-9]/);
    expect(r.text).toMatch(/hook=[1-9]/);
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(repo, '.git', 'hooks', 'post-checkout'))).toBe(false);
  });

  it('.git cannot be moved aside and replaced by one with a new config', async () => {
    const r = await inRepo('mv .git .git-old; echo "mv=$?"');
    expect(r.text).toMatch(/mv=[1-9]/);
    expect(existsSync(join(repo, '.git', 'config'))).toBe(true);
    expect(existsSync(join(repo, '.git-old'))).toBe(false);
  });

  it('commits and other writes under .git keep working', async () => {
    const r = await inRepo('echo two >> a.txt && git commit -qam two && git log --format=%s');
    expect(r.text).toBe('two\none');
    expect(git(repo, 'log', '--format=%s')).toBe('two\none\n');
  });

  it('a repository the command creates with a command in its config is refused and disarmed', async () => {
    const fresh = join(workspace, 'fresh-ws');
    mkdirSync(fresh);
    const call = bash('git init -q . && git config core.fsmonitor "touch /tmp/pwn" && echo done', {
      workspace: fresh,
    });
    await expect(call).rejects.toMatchObject({ category: 'sandbox_security' });
    await expect(call).rejects.toBeInstanceOf(ToolFailure);
    // The person's next git in that folder runs nothing the command wrote.
    const lookup = spawnSync('git', ['config', '--get-regexp', 'fsmonitor'], { cwd: fresh, encoding: 'utf8' });
    expect(lookup.stdout).toBe('');
    expect(lookup.status).toBe(1);
    expect(git(fresh, 'status', '--short')).toBe('');
  });

  it('a commondir pointed at a fake git folder, or a nested repository with a hook, is refused too', async () => {
    const fake =
      'mkdir -p fake/hooks && cp -r .git/objects .git/refs .git/HEAD fake/ && printf "[core]\\n\\tpager = touch /tmp/pwn\\n" > fake/config';
    // The known repository's commondir is read-only (issue 40, item 3: "." when it was missing).
    const known = await inRepo(`${fake} && echo ../fake > .git/commondir; echo "commondir=$?"`);
    expect(known.text).toMatch(/commondir=[1-9]/);
    expect(readFileSync(join(repo, '.git', 'commondir'), 'utf8')).toBe('.\n');
    rmSync(join(repo, 'fake'), { recursive: true });
    // A repository the command makes is judged with the common folder its commondir names.
    const redirect = inRepo(`${fake} && mkdir n && git -C n init -q && echo ../../fake > n/.git/commondir`);
    await expect(redirect).rejects.toMatchObject({ category: 'sandbox_security', message: /fake \(core\.pager\)/ });
    expect(existsSync(join(repo, 'fake', 'config'))).toBe(false);
    rmSync(join(repo, 'n'), { recursive: true });
    rmSync(join(repo, 'fake'), { recursive: true });
    const nested = inRepo('mkdir sub && cd sub && git init -q && printf "#!/bin/sh\\n" > .git/hooks/pre-commit');
    await expect(nested).rejects.toMatchObject({ message: /sub\/\.git \(hooks\/pre-commit\)/ });
    expect(existsSync(join(repo, 'sub', '.git', 'hooks', 'pre-commit'))).toBe(false);
    rmSync(join(repo, 'sub'), { recursive: true });
  });

  it('a repository the command creates with only ordinary settings is fine', async () => {
    const plain = join(workspace, 'plain-ws');
    mkdirSync(plain);
    const r = await bash(
      'git init -q . && git config user.name M && git config user.email m@x && echo a > a && git add a && git commit -qm a && git log --format=%s',
      { workspace: plain },
    );
    expect(r.text).toBe('a');
  });
});

describe('process limit (issue 24, lower items)', () => {
  it('a command that starts more processes than the limit is stopped, not left to the timeout', async () => {
    const r = await bash('for i in $(seq 3000); do sleep 30 & done; wait', { timeoutMs: 20_000 });
    expect(r.details.timedOut).toBeUndefined();
    expect(r.text).toMatch(/process limit/);
  }, 30_000);

  it('a fork bomb is stopped well before the timeout, and the next command runs', async () => {
    // Stopped by the limit: the 60 s timeout would have set timedOut.
    const r = await bash('bomb() { bomb | bomb & }; bomb; sleep 60', { timeoutMs: 60_000 });
    expect(r.details.timedOut).toBeUndefined();
    expect(r.text).toMatch(/process limit/);
    const next = await bash('echo still here');
    expect(next.text).toBe('still here');
    // Each call's cgroup is removed once its processes are gone.
    const ours = () =>
      ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'].flatMap((dir) => {
        try {
          return readdirSync(dir).filter((name) => name.startsWith(`resolute-bash-${process.pid}-`));
        } catch {
          return [];
        }
      });
    await expect.poll(ours, { timeout: 20_000 }).toEqual([]);
  }, 90_000);
});
