// The set-id half of the seccomp program (src/main/node/tools/seccomp-filter.ts), run by a small
// interpreter of its classic-BPF instructions, and the sweep after a call that clears the bits the
// filter could not see (src/main/node/tools/set-id-sweep.ts), on real files. The real kernel runs
// both in test/integration/sandbox-setid.test.ts.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unixSocketProgram, type FilterArch } from '../../../../src/main/node/tools/seccomp-filter';
import { clearSetIdBits } from '../../../../src/main/node/tools/set-id-sweep';

const ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** Runs the program on seccomp_data {nr, arch, args}; returns the action. */
function run(arch: FilterArch, nr: number, args: number[] = []): string {
  const program = unixSocketProgram(arch);
  let a = 0;
  for (let pc = 0; pc < program.length; pc += 1) {
    const { code, jt, jf, k } = program[pc];
    if (code === 0x20) a = k === 0 ? nr : k === 4 ? ARCH[arch] : (args[(k - 16) / 8] ?? 0);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x45) pc += (a & k) !== 0 ? jt : jf;
    else if (code === 0x05) pc += k;
    else if (code === 0x06) return k === 0x7fff0000 ? 'allow' : k === 0x80000000 ? 'kill' : `errno ${k & 0xffff}`;
    else throw new Error(`unknown instruction ${code}`);
  }
  throw new Error('fell off the end');
}

const O_CREAT = 0o100;
const O_TMPFILE = 0o20200000;
/** [name, nr, index of the mode argument, index of the flags argument (open), or -1] per architecture. */
const CALLS: Record<FilterArch, [string, number, number, number][]> = {
  x64: [
    ['chmod', 90, 1, -1],
    ['fchmod', 91, 1, -1],
    ['fchmodat', 268, 2, -1],
    ['fchmodat2', 452, 2, -1],
    ['open', 2, 2, 1],
    ['creat', 85, 1, -1],
    ['openat', 257, 3, 2],
    ['mknod', 133, 1, -1],
    ['mknodat', 259, 2, -1],
  ],
  arm64: [
    ['fchmod', 52, 1, -1],
    ['fchmodat', 53, 2, -1],
    ['fchmodat2', 452, 2, -1],
    ['openat', 56, 3, 2],
    ['mknodat', 33, 2, -1],
  ],
};

describe.each(['x64', 'arm64'] as const)('set-id modes on %s', (arch) => {
  const withMode = (at: number, flagsAt: number, mode: number, flags = O_CREAT) => {
    const args = [7, 7, 7, 7];
    args[at] = mode;
    if (flagsAt >= 0) args[flagsAt] = flags;
    return args;
  };

  it.each(CALLS[arch])('%s (%i) refuses S_ISUID and S_ISGID with EPERM, allows other modes', (_, nr, at, flagsAt) => {
    for (const mode of [0o4755, 0o2755, 0o6755, 0o104755])
      expect(run(arch, nr, withMode(at, flagsAt, mode))).toBe('errno 1');
    for (const mode of [0o755, 0o1777, 0o644, 0]) expect(run(arch, nr, withMode(at, flagsAt, mode))).toBe('allow');
  });

  it('open without O_CREAT or O_TMPFILE ignores its mode argument (it may hold anything)', () => {
    const [, nr, at, flagsAt] = CALLS[arch].find(([name]) => name === 'openat') ?? ['', 0, 0, 0];
    expect(run(arch, nr, withMode(at, flagsAt, 0o6755, 0o2))).toBe('allow');
    expect(run(arch, nr, withMode(at, flagsAt, 0o6755, O_TMPFILE | 0o2))).toBe('errno 1');
  });

  it('refuses openat2 with ENOSYS (its mode is in a struct the filter cannot read)', () => {
    expect(run(arch, 437, [0, 0, 0, 0])).toBe('errno 38');
  });

  it('still refuses socket(AF_UNIX) and allows other calls', () => {
    expect(run(arch, arch === 'x64' ? 41 : 198, [1])).toBe('errno 1');
    expect(run(arch, arch === 'x64' ? 41 : 198, [2])).toBe('allow');
    expect(run(arch, 63, [0o6755, 0o6755, 0o6755, 0o6755])).toBe('allow');
  });
});

describe('the sweep after a call', () => {
  let ws: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-sweep-')));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  const mode = (path: string) => lstatSync(path).mode & 0o7777;

  it('clears set-uid and set-gid on files changed since the call began, at any depth', () => {
    const start = Date.now();
    mkdirSync(join(ws, 'a', 'b'), { recursive: true });
    for (const [name, bits] of [
      ['a/b/x', 0o4755],
      ['y', 0o2750],
      ['plain', 0o755],
    ] as const) {
      writeFileSync(join(ws, name), '');
      chmodSync(join(ws, name), bits);
    }
    expect(clearSetIdBits(ws, start).sort()).toEqual([join(ws, 'a', 'b', 'x'), join(ws, 'y')]);
    expect([mode(join(ws, 'a', 'b', 'x')), mode(join(ws, 'y')), mode(join(ws, 'plain'))]).toEqual([
      0o755, 0o750, 0o755,
    ]);
  });

  it('leaves files the call did not change as they are', () => {
    writeFileSync(join(ws, 'own'), '');
    chmodSync(join(ws, 'own'), 0o4755);
    expect(clearSetIdBits(ws, Date.now() + 60_000)).toEqual([]);
    expect(mode(join(ws, 'own'))).toBe(0o4755);
  });
});
