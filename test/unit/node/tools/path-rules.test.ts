// The lexical half of workspace confinement (src/main/node/tools/path-rules.ts), as a table of
// hostile paths: everything that would leave the workspace is refused with a reason, and the
// look-alikes that cannot leave it (Unicode dots, percent-escapes, a URL) stay literal names inside.
import { describe, expect, it } from 'vitest';
import { confinePath } from '../../../../src/main/node/tools/path-rules';

const WS = '/home/me/work';

describe('confinePath refuses paths that leave the workspace', () => {
  it.each([
    ['..', /leaves the workspace/],
    ['../secrets.txt', /leaves the workspace/],
    ['../../etc/passwd', /leaves the workspace/],
    ['a/../../b', /leaves the workspace/],
    ['./../x', /leaves the workspace/],
    ['a/./../../x', /leaves the workspace/],
    ['a/b/c/../../../../x', /leaves the workspace/],
    ['..\\..\\windows\\system32', /leaves the workspace/],
    ['a\\..\\..\\x', /leaves the workspace/],
    ['/etc/passwd', /outside the workspace/],
    ['//etc/passwd', /outside the workspace/],
    ['/home/me/work-evil/x', /outside the workspace/],
    ['/home/me/workx', /outside the workspace/],
    ['/home/me/work/../other/x', /outside the workspace/],
    ['/home/me/WORK/x', /outside the workspace/],
    ['/HOME/me/work/x', /outside the workspace/],
    ['/home/me', /outside the workspace/],
    ['/', /outside the workspace/],
    ['~', /home folder/],
    ['~/.ssh/id_rsa', /home folder/],
    ['~root/.bashrc', /home folder/],
    ['C:\\Windows\\win.ini', /outside the workspace/],
    ['c:/x', /outside the workspace/],
    ['\\\\server\\share\\x', /network/],
    ['a\0b', /NUL/],
    ['../work/x', /leaves the workspace/],
    ['\\etc\\passwd', /outside the workspace/],
    ['c:', /outside the workspace/],
  ])('%j', (input, reason) => {
    const verdict = confinePath(input, WS);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });
});

describe('confinePath keeps look-alikes inside as literal names', () => {
  it.each([
    ['', '.'],
    ['.', '.'],
    ['./a/b.txt', 'a/b.txt'],
    ['a//b///c', 'a/b/c'],
    ['a/../b', 'b'],
    ['a/b/../../c', 'c'],
    ['/home/me/work', '.'],
    ['/home/me/work/src/x.ts', 'src/x.ts'],
    ['/home/me/work/a/../b', 'b'],
    ['\uff0e\uff0e/x', '\uff0e\uff0e/x'], // fullwidth full stops
    ['\u2024\u2024/x', '\u2024\u2024/x'], // one-dot leaders
    ['\u2025/x', '\u2025/x'], // two-dot leader
    ['%2e%2e/x', '%2e%2e/x'],
    ['..%2fx', '..%2fx'],
    ['...', '...'],
    ['....//x', '..../x'],
    ['file:///etc/passwd', 'file:/etc/passwd'],
    ['.\u202e/txt.exe', '.\u202e/txt.exe'], // right-to-left override
    ['e\u0301/x', 'e\u0301/x'], // combining accent, not normalised
    ['a\\b.txt', 'a/b.txt'],
  ])('%j → %j', (input, relative) => {
    const verdict = confinePath(input, WS);
    expect(verdict).toMatchObject({ ok: true, relative });
  });

  it('gives the segments to join under the workspace', () => {
    expect(confinePath('src/../lib/x.ts', WS)).toEqual({ ok: true, segments: ['lib', 'x.ts'], relative: 'lib/x.ts' });
  });

  it('drops empty and "." segments of an absolute path and of a workspace with a trailing separator', () => {
    expect(confinePath('/home/me/work/./src//x.ts/', WS)).toEqual({
      ok: true,
      segments: ['src', 'x.ts'],
      relative: 'src/x.ts',
    });
    expect(confinePath('/home/me/work/x', `${WS}/`)).toEqual({ ok: true, segments: ['x'], relative: 'x' });
    expect(confinePath('src/', WS)).toEqual({ ok: true, segments: ['src'], relative: 'src' });
  });

  it('a blank path is the workspace itself; a value that is not a string is refused', () => {
    expect(confinePath('   ', WS)).toEqual({ ok: true, segments: [], relative: '.' });
    expect(confinePath(42 as unknown as string, WS)).toEqual({ ok: false, reason: 'the path is not a string' });
  });

  it('understands a Windows workspace', () => {
    expect(confinePath('C:\\Users\\me\\ws\\a.txt', 'C:\\Users\\me\\ws')).toMatchObject({ ok: true, relative: 'a.txt' });
    expect(confinePath('C:\\Users\\me\\other', 'C:\\Users\\me\\ws').ok).toBe(false);
  });
});
