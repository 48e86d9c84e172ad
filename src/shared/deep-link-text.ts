// The plain part of deep links (docs/hosts.md, "Deep links"): the scheme, the size limit, and where
// links are found — a launch's arguments, the browser mode's address fragment — with the check the
// preload makes before a link crosses to the page. No zod here: the sandboxed preload and the
// window's first chunk import this; deep-link.ts, the parser, imports it.

export const DEEP_LINK_SCHEME = 'resolute';
/** The longest link taken, in characters: a prompt or a configuration longer than this is refused. */
export const DEEP_LINK_MAX_CHARS = 16_384;

/** Whether a text starts as a `resolute://` link (any case: an OS may upper-case the scheme). */
export function startsAsLink(text: string): boolean {
  const prefix = `${DEEP_LINK_SCHEME}://`;
  return text.slice(0, prefix.length).toLowerCase() === prefix;
}

/** What may cross from the main process to the page as a link: a `resolute://` string within the limit. */
export function isDeepLinkText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= DEEP_LINK_MAX_CHARS && startsAsLink(value);
}

/**
 * The browser mode's form of a link: the address's fragment `#/link/<path>` stands for
 * `resolute://<path>` (docs/hosts.md, "Deep links"). Null when the fragment is not a link.
 */
export function linkFromFragment(hash: string): string | null {
  const FRAGMENT = '#/link/';
  return hash.startsWith(FRAGMENT) ? `${DEEP_LINK_SCHEME}://${hash.slice(FRAGMENT.length)}` : null;
}

/** The links among a launch's arguments (Windows and Linux pass the link as one). */
export function linksInArgv(argv: readonly string[]): string[] {
  return argv.filter(isDeepLinkText);
}
