// The default browser's way to a launch link (open-app.ts, when no app window could be opened): no
// DevTools pipe reaches that browser, and its command line (`xdg-open …`) is readable by every local
// user, so the link goes into a page only the person can read — 0600, in a 0700 folder of the data
// folder — which sends the browser on to it, and the browser gets that file's path. The file is
// removed once its link is spent or dead (docs/hosts.md, "Tokens and launch links").
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFileOnce, makePrivateDir } from '../../node/safe-files';

/** In the data folder, whose owner alone can read it. */
export const LAUNCH_FOLDER = 'launch';

/** Write the page that forwards to `link`; returns its path. Pages left by earlier runs are removed. */
export function writeLaunchFile(dataDir: string, link: string): string {
  const folder = join(dataDir, LAUNCH_FOLDER);
  makePrivateDir(folder);
  // An earlier run's page holds a code that died with that run.
  for (const name of readdirSync(folder)) rmSync(join(folder, name), { force: true });
  const path = join(folder, `open-${randomBytes(8).toString('hex')}.html`);
  createFileOnce(path, launchPage(link));
  return path;
}

export function removeLaunchFile(path: string): void {
  rmSync(path, { force: true });
}

/** A page that goes on to `link` at once, with the link as a fallback to click. */
export function launchPage(link: string): string {
  const href = link.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
    `<meta http-equiv="refresh" content="0;url=${href}"><title>Resolute</title>` +
    `<p><a href="${href}">Open Resolute</a></p>\n`
  );
}
