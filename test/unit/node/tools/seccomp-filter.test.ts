// The seccomp program (src/main/node/tools/seccomp-filter.ts), run here by a small interpreter of
// the classic-BPF instructions it uses, for the system calls that matter: socket(AF_UNIX) refused,
// socket(AF_INET) and socketpair allowed, io_uring_setup refused, a foreign ABI killed. The real
// kernel runs it in test/integration/sandbox-holes.test.ts.
import { describe, expect, it } from 'vitest';
import {
  filterArch,
  unixSocketFilter,
  unixSocketProgram,
  type FilterArch,
} from '../../../../src/main/node/tools/seccomp-filter';

const ARCH = { x64: 0xc000003e, arm64: 0xc00000b7, i386: 0x40000003 };
const NR = { x64: { socket: 41, socketpair: 53, connect: 42 }, arm64: { socket: 198, socketpair: 199, connect: 203 } };

/** Runs the program on seccomp_data {nr, arch, args[0]}; returns the action. */
function run(arch: FilterArch, data: { nr: number; arch: number; arg0: number }): string {
  const program = unixSocketProgram(arch);
  let a = 0;
  for (let pc = 0; pc < program.length; pc += 1) {
    const { code, jt, jf, k } = program[pc];
    if (code === 0x20) a = k === 0 ? data.nr : k === 4 ? data.arch : k === 16 ? data.arg0 : NaN;
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x05) pc += k;
    else if (code === 0x06) {
      if (k === 0x7fff0000) return 'allow';
      if (k === 0x80000000) return 'kill';
      return `errno ${k & 0xffff}`;
    } else throw new Error(`unknown instruction ${code}`);
  }
  throw new Error('fell off the end');
}

describe.each(['x64', 'arm64'] as const)('the filter on %s', (arch) => {
  const call = (nr: number, arg0 = 0, a = ARCH[arch]) => run(arch, { nr, arch: a, arg0 });

  it('refuses socket(AF_UNIX) with EPERM and allows other families', () => {
    expect(call(NR[arch].socket, 1)).toBe('errno 1');
    expect(call(NR[arch].socket, 2)).toBe('allow');
    expect(call(NR[arch].socket, 10)).toBe('allow');
  });

  it('allows socketpair, connect and everything else', () => {
    expect(call(NR[arch].socketpair, 1)).toBe('allow');
    expect(call(NR[arch].connect, 1)).toBe('allow');
    expect(call(0, 1)).toBe('allow');
  });

  it('refuses io_uring_setup with ENOSYS (it could create the socket past the filter)', () => {
    expect(call(425)).toBe('errno 38');
  });

  it('kills a process calling through a foreign ABI', () => {
    expect(call(102, 1, ARCH.i386)).toBe('kill');
  });

  it('is 8 bytes per instruction, little-endian', () => {
    const bytes = unixSocketFilter(arch);
    expect(bytes.length).toBe(unixSocketProgram(arch).length * 8);
    expect([...bytes.slice(0, 8)]).toEqual([0x20, 0, 0, 0, 4, 0, 0, 0]);
    // Every instruction, read back as the kernel reads struct sock_filter, is the program's.
    const view = new DataView(bytes.buffer);
    const decoded = unixSocketProgram(arch).map((_, i) => ({
      code: view.getUint16(i * 8, true),
      jt: view.getUint8(i * 8 + 2),
      jf: view.getUint8(i * 8 + 3),
      k: view.getUint32(i * 8 + 4, true),
    }));
    expect(decoded).toEqual(unixSocketProgram(arch).map((insn) => ({ ...insn, k: insn.k >>> 0 })));
  });
});

it('kills x32 system calls on x86-64', () => {
  expect(run('x64', { nr: 0x40000000 + 41, arch: ARCH.x64, arg0: 1 })).toBe('kill');
});

it('knows x64 and arm64 only', () => {
  expect([filterArch('x64'), filterArch('arm64'), filterArch('ia32'), filterArch('riscv64')]).toEqual([
    'x64',
    'arm64',
    null,
    null,
  ]);
});
