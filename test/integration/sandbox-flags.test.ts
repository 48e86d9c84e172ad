// Why each bubblewrap flag of the bash sandbox is there (src/main/node/tools/sandbox-plan.ts;
// docs/tools.md, "The sandbox"), each checked by what a command can see or do, with the real bash
// tool in the real bubblewrap: another process's command line (an API key on it) and the host's
// processes stay out of sight (--proc, --unshare-pid); SysV shared memory, the host name and the
// network are namespaces of the sandbox's own; /dev, /tmp and /run hold nothing of the host's;
// the sandbox dies with the app (--die-with-parent) and never reaches its terminal (--new-session).
// Each test fails with its flag removed from the plan (issue 49, item 2).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { bashTool } from '../../src/main/node/tools/bash-tool';
import { defaultSandboxHost } from '../../src/main/node/tools/executables';
import { bubblewrapArgs } from '../../src/main/node/tools/sandbox-plan';

const host = defaultSandboxHost();
let root: string;
let workspace: string;
let dataDir: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-flags-')));
  workspace = join(root, 'ws');
  dataDir = join(root, 'data');
  mkdirSync(workspace);
  mkdirSync(dataDir);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One call of the real bash tool, as the session makes it; its output text. */
async function bash(command: string, network = false): Promise<string> {
  const tool = bashTool(host, [dataDir]);
  const settings = { ...DEFAULT_SETTINGS.tools, network, timeoutMs: 20_000 };
  const outcome = await tool.run({ command }, { toolCallId: 'flags', workspace, settings });
  return outcome.text;
}

/** A namespace of this (host) process, e.g. "ipc:[4026531839]". */
const hostNamespace = (kind: string) => readlinkSync(`/proc/self/ns/${kind}`);

/** Pids of the processes `sleep SECONDS` (a unique number per test), read from /proc. */
function sleeping(seconds: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${seconds}\0`;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe('processes: --proc /proc and --unshare-pid', () => {
  let probe: ChildProcess;
  const secret = `--api-key=sk-resolute-probe-${process.pid}`;

  beforeAll(() => {
    // A process of the host with a key on its command line, like a CLI started with --api-key.
    probe = spawn('/bin/sh', ['-c', 'sleep 600; :', 'resolute-probe', secret], { stdio: 'ignore', detached: true });
  });
  afterAll(() => process.kill(-probe.pid!, 'SIGKILL'));

  it("a command sees only the sandbox's processes, not another process's command line", async () => {
    // The check below can fail: the host sees the key.
    expect(readFileSync(`/proc/${probe.pid}/cmdline`, 'utf8')).toContain(secret);
    const text = await bash(
      'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f"; echo; done; echo "count=$(ls -d /proc/[0-9]* | wc -l)"',
    );
    expect(text).not.toContain('sk-resolute-probe');
    expect(text).not.toMatch(/sleep 600/);
    // bwrap's init, bash, the loop's tr and ls: a handful, never the machine's hundreds.
    expect(Number(/count=(\d+)/.exec(text)?.[1])).toBeLessThanOrEqual(8);
    expect(await bash('echo $$')).toMatch(/^\d$/);
  });
});

describe('System V IPC: --unshare-ipc', () => {
  let shmid: string;
  beforeAll(() => {
    shmid = /(\d+)/.exec(execFileSync('ipcmk', ['-M', '4096'], { encoding: 'utf8' }))![1];
  });
  afterAll(() => spawnSync('ipcrm', ['-m', shmid]));

  it("a shared memory segment of the host is not visible inside, and the namespace is the sandbox's own", async () => {
    expect(execFileSync('ipcs', ['-m', '-i', shmid], { encoding: 'utf8' })).toMatch(/Segment shmid=/);
    const text = await bash(`ipcs -m -i ${shmid} 2>&1; echo; readlink /proc/self/ns/ipc`);
    expect(text).not.toMatch(/Segment shmid=/);
    expect(text.trim().split('\n').at(-1)).toMatch(/^ipc:\[\d+\]$/);
    expect(text.trim().split('\n').at(-1)).not.toBe(hostNamespace('ipc'));
  });
});

describe('host name: --unshare-uts', () => {
  it("the command's host name is in a namespace of its own", async () => {
    const text = await bash('readlink /proc/self/ns/uts');
    expect(text).toMatch(/^uts:\[\d+\]$/);
    expect(text).not.toBe(hostNamespace('uts'));
  });
});

describe('cgroups: --unshare-cgroup-try', () => {
  it("the command sees its own cgroup as the root, not the host's tree", async () => {
    const text = await bash('readlink /proc/self/ns/cgroup; cat /proc/self/cgroup');
    expect(text.split('\n')[0]).not.toBe(hostNamespace('cgroup'));
    expect(text.split('\n').slice(1).join('\n')).toMatch(/^0::\/$/m);
  });
});

describe('network: --unshare-net unless tools.network', () => {
  it("without the network the command has a network namespace of its own, only loopback; with it, the host's", async () => {
    const off = await bash('readlink /proc/self/ns/net; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "');
    expect(off.split('\n')[0]).not.toBe(hostNamespace('net'));
    expect(off.split('\n').slice(1)).toEqual(['lo']);
    // The check can fail: with the network on it is the host's.
    expect((await bash('readlink /proc/self/ns/net', true)).trim()).toBe(hostNamespace('net'));
  });
});

describe('file system: --dev, --tmpfs /tmp, /var/tmp and /run', () => {
  it("/dev holds only the basic devices, none of the host's disks or consoles", async () => {
    const basic = ['full', 'null', 'ptmx', 'pts/ptmx', 'random', 'tty', 'urandom', 'zero'];
    // Not find(1): the nodes are bind mounts over a tmpfs's files, whose directory entries say "file".
    const text = await bash(
      'for f in /dev/* /dev/*/*; do [ ! -L "$f" ] && [ -b "$f" -o -c "$f" ] && echo "${f#/dev/}"; done; true',
    );
    const inside = text.split('\n').filter(Boolean);
    for (const name of inside) expect(basic).toContain(name);
    // Where the host has a disk or a kernel log, the command does not.
    for (const name of ['kmsg', 'loop0', 'sda', 'vda', 'nvme0n1'])
      if (existsSync(`/dev/${name}`)) expect(inside).not.toContain(name);
  });

  it("/tmp, /var/tmp and /run are empty ones of the command's own; what it writes there stays there", async () => {
    const mark = `resolute-flags-${process.pid}`;
    writeFileSync(join('/tmp', mark), 'host');
    writeFileSync(join('/var/tmp', mark), 'host');
    try {
      const text = await bash(
        `ls -A /tmp /var/tmp; ls -A /run | wc -l; echo sandbox > /tmp/${mark}-in && echo wrote; ls /run/systemd 2>&1 | head -1`,
      );
      expect(text).not.toContain(mark);
      expect(text).toMatch(/\nwrote\n/);
      expect(existsSync(join('/tmp', `${mark}-in`))).toBe(false);
      // /tmp shows only the way to the workspace (which lies under it here); /var/tmp and /run are empty.
      expect(text).toMatch(new RegExp(`^/tmp:\n(${basename(root)}\n)?\n/var/tmp:\n0\n`));
    } finally {
      rmSync(join('/tmp', mark), { force: true });
      rmSync(join('/var/tmp', mark), { force: true });
    }
  });
});

/** The plan's bubblewrap arguments for `command`, as bash-sandbox.ts builds them (no seccomp). */
function plan(command: string): string[] {
  return bubblewrapArgs({
    workspace,
    network: false,
    hidden: [dataDir],
    privateTmp: ['/var/tmp'],
    env: { PATH: '/usr/bin:/bin' },
    command,
  });
}

describe('--die-with-parent: the sandbox ends with the app, even killed outright', () => {
  it('a command still running is gone once the process that started bubblewrap is killed', async () => {
    const marker = `3000.${process.pid}1`;
    // A stand-in for the app: a shell that starts bwrap (status on its descriptor 3) and is then SIGKILLed.
    const app = spawn('/bin/sh', ['-c', '"$@" & wait', 'app', host.bwrap, ...plan(`sleep ${marker}`)], {
      detached: true,
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    try {
      // The command itself, not the shell or bwrap whose arguments name it: bwrap is set up by then.
      await until(() => sleeping(marker).length > 0, 'the sandboxed sleep to start');
      process.kill(app.pid!, 'SIGKILL');
      await until(() => sleeping(marker).length === 0, 'the sandboxed sleep to end with its parent');
      expect(sleeping(marker)).toEqual([]);
    } finally {
      // When the flag is missing, bwrap lives on outside the shell's group: end the command itself.
      for (const pid of [-app.pid!, ...sleeping(marker)])
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone, as it should be.
        }
    }
  });
});

describe('--new-session: no way to the terminal the app runs in', () => {
  const openTty = '(exec 4</dev/tty) 2>/dev/null && echo tty-open || echo no-tty';
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

  /** Runs `line` under `script`, which gives it a terminal of its own as its controlling one. */
  function inTerminal(line: string): string {
    const file = join(root, 'in-terminal.sh');
    writeFileSync(file, `exec 3>/dev/null\n${line}\n`);
    return execFileSync('script', ['-qec', `/bin/sh ${file}`, '/dev/null'], { encoding: 'utf8', stdio: 'pipe' });
  }

  it('a command cannot open /dev/tty even when the app has a controlling terminal', () => {
    // The check can fail: outside the sandbox the same line opens it.
    expect(inTerminal(`/bin/sh -c ${quote(openTty)}`)).toMatch(/tty-open/);
    const text = inTerminal([host.bwrap, ...plan(openTty)].map(quote).join(' '));
    expect(text).toMatch(/no-tty/);
    expect(text).not.toMatch(/tty-open/);
  });
});
