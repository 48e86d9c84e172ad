// The system programs `npm test` needs besides node_modules, checked first so that a fresh machine
// stops within seconds with one message (what is missing, the one command that installs it) rather
// than after minutes of scattered failures: Chromium (Playwright's own or /usr/bin/chromium) for
// the e2e tests, ripgrep for the find/grep tools, and on Linux bubblewrap (the bash tool's sandbox)
// and Xvfb, xdotool and ImageMagick's `import` (the app-window test). The README's set-up section
// lists the same. It also loads better-sqlite3, whose native binary comes from an install script
// that npm may skip (package.json's allowScripts) or build for another Node line. Run by
// package.json's "test" script; test/unit/packaging/check-prereqs.test.ts.
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The command that installs everything on Debian or Ubuntu: the README's, and .ci/run's list. */
export const APT_COMMAND = 'sudo apt-get install chromium bubblewrap ripgrep xvfb xdotool imagemagick';

/** Is `name` an executable file in one of `path`'s folders? */
export function onPath(name, path) {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/**
 * What is missing, as `{ what, apt }` (apt: the Debian package). `chromiumPaths`: where a Chromium
 * may be (Playwright's own first); `path` and `platform` default to this process's.
 */
export function missingPrereqs({ path = process.env.PATH, platform = process.platform, chromiumPaths }) {
  const missing = [];
  if (!chromiumPaths.some((candidate) => candidate && existsSync(candidate)))
    missing.push({ what: 'Chromium (for the e2e tests)', apt: 'chromium' });
  if (!onPath('rg', path)) missing.push({ what: 'ripgrep (rg, for the find and grep tools)', apt: 'ripgrep' });
  if (platform === 'linux') {
    if (!onPath('bwrap', path))
      missing.push({ what: "bubblewrap (bwrap, the bash tool's sandbox)", apt: 'bubblewrap' });
    if (!onPath('Xvfb', path)) missing.push({ what: 'Xvfb (the app-window test)', apt: 'xvfb' });
    if (!onPath('xdotool', path)) missing.push({ what: 'xdotool (the app-window test)', apt: 'xdotool' });
    if (!onPath('import', path))
      missing.push({ what: "ImageMagick's import (the app-window test)", apt: 'imagemagick' });
  }
  return missing;
}

/** The one message for what is missing. */
export function prereqMessage(missing, platform = process.platform) {
  const lines = ['npm test needs programs this machine does not have:', ...missing.map((m) => `  - ${m.what}`)];
  if (platform === 'linux') lines.push('Install them all with:', `  ${APT_COMMAND}`);
  else lines.push('Install ripgrep (e.g. `brew install ripgrep`) and Chromium (`npx playwright install chromium`).');
  lines.push('(README.md, "Set up, run, test".)');
  return lines.join('\n');
}

/**
 * Why better-sqlite3 cannot open a database here, in words a person can act on, or undefined when
 * it can. `load` returns the module (the default: require it from this project).
 */
export function sqliteProblem(load = () => createRequire(import.meta.url)('better-sqlite3')) {
  try {
    const Database = load();
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const cause = /NODE_MODULE_VERSION/.test(text)
      ? `it was built for another Node.js version than this one (${process.version})`
      : /bindings file|Cannot find module|cannot open shared object/i.test(text)
        ? 'it is missing (its install script did not run: see "allowScripts" in package.json)'
        : 'it failed to load';
    return [
      `npm test needs better-sqlite3's native binary, but ${cause}.`,
      'Build it for this Node.js with:',
      '  npm rebuild better-sqlite3',
      '(a C++ toolchain and Python are needed where no prebuilt binary can be downloaded)',
      `The error: ${text.split('\n')[0]}`,
    ].join('\n');
  }
}

async function playwrightChromium() {
  try {
    const { chromium } = await import('@playwright/test');
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const missing = missingPrereqs({ chromiumPaths: [await playwrightChromium(), '/usr/bin/chromium'] });
  if (missing.length > 0) {
    console.error(prereqMessage(missing));
    process.exit(1);
  }
  const sqlite = sqliteProblem();
  if (sqlite) {
    console.error(sqlite);
    process.exit(1);
  }
}
