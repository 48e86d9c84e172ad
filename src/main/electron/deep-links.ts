// resolute:// as the OS protocol (docs/hosts.md, "Deep links"): the app registers itself as the
// scheme's handler and takes links from where each OS hands them over — `open-url` on macOS, the
// launch's arguments on Windows and Linux (the first launch's, and a second launch's through the
// single-instance lock) — and passes them, unread, to the window, which parses and asks. Links that
// come before the page can listen wait in the inbox. main.ts wires it; Electron's objects are
// parameters here, so the tests use fakes.
import { resolve } from 'node:path';
import { DEEP_LINK_SCHEME, isDeepLinkText, linksInArgv } from '../../shared/deep-link-text';

/** The part of Electron's app the wiring uses. */
export interface ProtocolApp {
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
}

/** How this process was started: an unpackaged app (`electron .`) names its script to be started again. */
export interface LaunchShape {
  /** process.defaultApp: true when run by the `electron` binary on a script, not packaged. */
  isDefaultApp: boolean;
  execPath: string;
  /** process.argv. */
  argv: readonly string[];
}

/** Links that wait until the page listens; this many at most (a flood of links keeps the newest). */
const INBOX_LIMIT = 8;

export interface LinkInbox {
  /** A link from the OS: sent now if the page listens, else kept. */
  receive(url: string): void;
  /** The page loaded (its preload listens): what waited is sent. */
  pageLoaded(): void;
  /** The page is (re)loading: links wait again. */
  pageGone(): void;
}

export function createLinkInbox(send: (url: string) => void): LinkInbox {
  const waiting: string[] = [];
  let isListening = false;
  return {
    receive(url) {
      if (!isDeepLinkText(url)) return;
      if (isListening) return send(url);
      waiting.push(url);
      if (waiting.length > INBOX_LIMIT) waiting.shift();
    },
    pageLoaded() {
      isListening = true;
      for (const url of waiting.splice(0)) send(url);
    },
    pageGone() {
      isListening = false;
    },
  };
}

/** The inbox follows one window's page: links wait while it loads, and go once it has loaded. */
export function followPage(
  contents: { on(event: 'did-start-loading' | 'did-finish-load', listener: () => void): unknown },
  inbox: LinkInbox,
): void {
  contents.on('did-start-loading', () => inbox.pageGone());
  contents.on('did-finish-load', () => inbox.pageLoaded());
}

/** Make this app the OS's handler of resolute:// links; false when the OS refused. */
export function registerProtocol(app: Pick<ProtocolApp, 'setAsDefaultProtocolClient'>, launch: LaunchShape): boolean {
  // Unpackaged, the OS must start `electron <script>`, not the bare binary (which would open nothing).
  if (launch.isDefaultApp && launch.argv.length >= 2)
    return app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, launch.execPath, [resolve(launch.argv[1])]);
  return app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
}

export interface DeepLinkWiring {
  /** The single-instance lock's `second-instance` hands a later launch's arguments here. */
  secondInstance(argv: readonly string[]): void;
}

/**
 * Register the protocol, listen for macOS's `open-url` (before the app is ready: a link that
 * started the app comes that early) and take the first launch's links. `focus` brings the window
 * forward for each link.
 */
export function wireDeepLinks(inputs: {
  app: ProtocolApp;
  launch: LaunchShape;
  inbox: LinkInbox;
  focus: () => void;
}): DeepLinkWiring {
  const { app, launch, inbox, focus } = inputs;
  registerProtocol(app, launch);
  const take = (urls: readonly string[]) => {
    for (const url of urls) inbox.receive(url);
    if (urls.length > 0) focus();
  };
  app.on('open-url', (event, url) => {
    event.preventDefault();
    take([url]);
  });
  take(linksInArgv(launch.argv));
  return { secondInstance: (argv) => take(linksInArgv(argv)) };
}
