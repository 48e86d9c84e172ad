// `npm test`'s first step (scripts/check-prereqs.js) on a machine without the system programs:
// a PATH that lacks ripgrep, bubblewrap, Xvfb, xdotool and ImageMagick, and no Chromium where it is
// looked for. It stops at once with one message naming each and the README's one install command.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APT_COMMAND, missingPrereqs, prereqMessage, sqliteProblem } from '../../../scripts/check-prereqs.js';

const empty = mkdtempSync(join(tmpdir(), 'resolute-prereqs-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('the prerequisites of npm test', () => {
  it('names everything a bare Linux machine lacks, and the one command that installs it', () => {
    const missing = missingPrereqs({ path: empty, platform: 'linux', chromiumPaths: [join(empty, 'chromium')] });
    expect(missing.map((m) => m.apt)).toEqual(['chromium', 'ripgrep', 'bubblewrap', 'xvfb', 'xdotool', 'imagemagick']);
    const message = prereqMessage(missing, 'linux');
    expect(message).toContain('bubblewrap (bwrap');
    expect(message).toContain(APT_COMMAND);
    for (const { apt } of missing) expect(APT_COMMAND.split(' ')).toContain(apt);
  });

  it('finds a program on the PATH only when it is executable', () => {
    const bin = mkdtempSync(join(tmpdir(), 'resolute-prereqs-bin-'));
    try {
      writeFileSync(join(bin, 'rg'), '#!/bin/sh\n');
      const only = { path: bin, platform: 'darwin' as const, chromiumPaths: [] };
      expect(missingPrereqs(only).map((m) => m.apt)).toEqual(['chromium', 'ripgrep']);
      chmodSync(join(bin, 'rg'), 0o755);
      expect(missingPrereqs(only).map((m) => m.apt)).toEqual(['chromium']);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'run as a script with a PATH that lacks them, it stops within seconds',
    () => {
      // A probe left waiting would hold it to spawnSync's timeout: killed then, with no status.
      const run = spawnSync(process.execPath, ['scripts/check-prereqs.js'], {
        env: { PATH: empty },
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(run.error).toBeUndefined();
      expect(run.status).toBe(1);
      for (const name of ['ripgrep', 'bubblewrap', 'Xvfb', 'xdotool', "ImageMagick's import"])
        expect(run.stderr).toContain(name);
      expect(run.stderr).toContain(APT_COMMAND);
    },
  );

  it('loads better-sqlite3 here, and says what to run when its binary is missing or for another Node', () => {
    expect(sqliteProblem()).toBeUndefined();
    const missing = sqliteProblem(() => {
      throw new Error('Could not locate the bindings file. Tried:\n → /x/build/better_sqlite3.node');
    });
    expect(missing).toContain('native binary, but it is missing');
    expect(missing).toContain('npm rebuild better-sqlite3');
    expect(missing).toContain('Could not locate the bindings file.');
    expect(missing).not.toContain('/x/build');
    const otherNode = sqliteProblem(() => {
      throw new Error('was compiled against a different Node.js version using NODE_MODULE_VERSION 137.');
    });
    expect(otherNode).toContain('built for another Node.js version');
  });

  it('lets npm run the install scripts the app needs, and no others', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts: Record<string, boolean> };
    const allowed = Object.entries(pkg.allowScripts)
      .filter(([, ok]) => ok)
      .map(([spec]) => spec.replace(/@[^@]*$/, ''));
    for (const needed of ['better-sqlite3', 'esbuild', 'sharp']) expect(allowed).toContain(needed);
    expect(allowed).not.toContain('@google/genai');
  });

  it("is npm test's first step, and the README gives the same command", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test.startsWith('node scripts/check-prereqs.js && ')).toBe(true);
    expect(readFileSync('README.md', 'utf8')).toContain(APT_COMMAND);
  });
});
