// The seccomp filter bubblewrap loads for every sandboxed command (`--seccomp FD`; docs/tools.md,
// "Threat model: the bash sandbox"), as classic-BPF bytes built here: socket(AF_UNIX, …) fails with
// EPERM, so no command can connect to a Unix socket outside (a docker or ssh-agent socket under the
// home folder, the X server's abstract socket); chmod and the calls that create a file with a mode
// fail with EPERM when the mode has a set-uid or set-gid bit; io_uring_setup and openat2 fail with
// ENOSYS (io_uring could make that socket past the filter; openat2's mode is out of its sight).
// socketpair() stays allowed: its two ends reach nothing but each other, and libuv, Python and
// many tools use it for their own pipes. A foreign ABI (i386 or x32 system calls on x86-64) kills
// the process: socketcall() could not be inspected. Pure; bash-sandbox.ts writes the bytes to bwrap.

/** The architectures with a filter; elsewhere bash runs without it (docs/tools.md says so). */
export type FilterArch = 'x64' | 'arm64';

const AUDIT_ARCH: Record<FilterArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };
const SYS_SOCKET: Record<FilterArch, number> = { x64: 41, arm64: 198 };
/** io_uring_setup and openat2 (whose mode sits in a struct seccomp cannot read) have one number everywhere. */
const SYS_IO_URING_SETUP = 425;
const SYS_OPENAT2 = 437;

/** A call that sets a file's mode: its number, the argument holding the mode, and for open the flags. */
interface ModeCall {
  nr: number;
  mode: number;
  /** open/openat: the mode counts only with O_CREAT or O_TMPFILE in this argument (else it is garbage). */
  flags?: number;
}

/** chmod, fchmod, fchmodat, fchmodat2, open, creat, openat, mknod, mknodat (arm64 has only the *at ones). */
const MODE_CALLS: Record<FilterArch, ModeCall[]> = {
  x64: [
    { nr: 90, mode: 1 },
    { nr: 91, mode: 1 },
    { nr: 268, mode: 2 },
    { nr: 452, mode: 2 },
    { nr: 2, mode: 2, flags: 1 },
    { nr: 85, mode: 1 },
    { nr: 257, mode: 3, flags: 2 },
    { nr: 133, mode: 1 },
    { nr: 259, mode: 2 },
  ],
  arm64: [
    { nr: 52, mode: 1 },
    { nr: 53, mode: 2 },
    { nr: 452, mode: 2 },
    { nr: 56, mode: 3, flags: 2 },
    { nr: 33, mode: 2 },
  ],
};
/** x86-64's x32 ABI sets this bit in the system call number. */
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
/** S_ISUID | S_ISGID. */
const SET_ID_BITS = 0o6000;
/** O_CREAT | __O_TMPFILE, the same on x86-64 and arm64. */
const CREATES = 0o100 | 0o20000000;
const EPERM = 1;
const ENOSYS = 38;

// struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (its low 32 bits: both are little-endian).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const offsetOfArg = (i: number): number => 16 + 8 * i;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const JA = 0x05;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;

export interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const load = (offset: number): Insn => ({ code: LD_W_ABS, jt: 0, jf: 0, k: offset });
const ret = (value: number): Insn => ({ code: RET_K, jt: 0, jf: 0, k: value });
/** Jump `jt` instructions ahead when A === k, `jf` ahead otherwise. */
const jeq = (k: number, jt: number, jf: number): Insn => ({ code: JEQ_K, jt, jf, k });
const jge = (k: number, jt: number, jf: number): Insn => ({ code: JGE_K, jt, jf, k });
/** Jump `jt` ahead when A & k is not 0, `jf` ahead otherwise. */
const jset = (k: number, jt: number, jf: number): Insn => ({ code: JSET_K, jt, jf, k });
/** Jump `k` instructions ahead, always. */
const ja = (k: number): Insn => ({ code: JA, jt: 0, jf: 0, k });

export function filterArch(arch: string): FilterArch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

/** For call `nr` (A holds the number): EPERM when its mode has a set-id bit, else allowed; other calls go on. */
function modeBlock({ nr, mode, flags }: ModeCall): Insn[] {
  const check = [load(offsetOfArg(mode)), jset(SET_ID_BITS, 0, 1), ret(RET_ERRNO | EPERM), ret(RET_ALLOW)];
  const body = flags === undefined ? check : [load(offsetOfArg(flags)), jset(CREATES, 0, check.length - 1), ...check];
  return [jeq(nr, 0, body.length), ...body];
}

/** The program, instruction by instruction (the unit tests read it). */
export function unixSocketProgram(arch: FilterArch): Insn[] {
  return [
    /* 0 */ load(OFFSET_ARCH),
    /* 1 */ jeq(AUDIT_ARCH[arch], 1, 0),
    /* 2 */ ret(RET_KILL_PROCESS),
    /* 3 */ load(OFFSET_NR),
    /* 4 */ arch === 'x64' ? jge(X32_SYSCALL_BIT, 0, 1) : ja(1),
    /* 5 */ ret(RET_KILL_PROCESS),
    /* 6 */ jeq(SYS_IO_URING_SETUP, 0, 1),
    /* 7 */ ret(RET_ERRNO | ENOSYS),
    /* 8 */ jeq(SYS_OPENAT2, 0, 1),
    /* 9 */ ret(RET_ERRNO | ENOSYS),
    /* 10 */ jeq(SYS_SOCKET[arch], 0, 4),
    /* 11 */ load(offsetOfArg(0)),
    /* 12 */ jeq(AF_UNIX, 0, 1),
    /* 13 */ ret(RET_ERRNO | EPERM),
    /* 14 */ ret(RET_ALLOW),
    ...MODE_CALLS[arch].flatMap(modeBlock),
    ret(RET_ALLOW),
  ];
}

/** The program as struct sock_filter[] bytes (u16 code, u8 jt, u8 jf, u32 k; little-endian). */
export function unixSocketFilter(arch: FilterArch): Uint8Array {
  const program = unixSocketProgram(arch);
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((insn, i) => {
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, insn.jt);
    view.setUint8(i * 8 + 3, insn.jf);
    view.setUint32(i * 8 + 4, insn.k >>> 0, true);
  });
  return bytes;
}
