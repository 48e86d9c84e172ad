// What the window does with a resolute:// link (docs/hosts.md, "Deep links"), from the Electron
// host's link channel or the browser mode's address (#/link/<path>): `chat/<id>` opens that chat,
// `new?prompt=` opens a new chat with the text in its box — never sent — and `mcp/add` puts the
// server's configuration on screen as a question (LinkDialog); it is added by the person's Add
// only, through the same settings update as Settings → MCP's import. A refused link says why.
// The parser (and zod) load with the first link. Written against LinkRuntime (link-runtime.ts
// makes it of the store and the actions), so the integration test runs it on the real services.
import type { DeepLinkRefusal } from '../../../shared/deep-link';
import { linkFromFragment } from '../../../shared/deep-link-text';
import type { McpServerConfig } from '../../../shared/mcp';
import { MCP_SERVER_NAME } from '../../../shared/mcp-values';

/** What a link shows: the MCP server it would add (asked, never added unasked), or why it was refused. */
export type LinkPrompt =
  | {
      kind: 'mcp-add';
      /** The name the link gave. */
      name: string;
      /** The name it is added as: `name`, or a free one beside a server of that name. */
      addAs: string;
      config: McpServerConfig;
      /** The main process's refusal of the Add, shown in the question. */
      error?: string;
    }
  | { kind: 'refused'; reason: DeepLinkRefusal; detail?: string };

/** The window's side of links: what is on screen, and the few actions a link takes. */
export interface LinkRuntime {
  link(): LinkPrompt | null;
  show(link: LinkPrompt | null): void;
  /** The MCP servers in the settings now. */
  serverNames(): string[];
  openChat(sessionId: string): Promise<unknown>;
  /** A new chat with the text in its box, not sent. */
  newChatWithText(text: string): Promise<unknown>;
  /** Put the server in the settings; the main process's refusal, or null when it was added. */
  addServer(name: string, config: McpServerConfig): Promise<string | null>;
  /** Settings → MCP, where the new server shows starting (and can be switched off or removed). */
  showMcpSettings(): void;
  /** Whether the first snapshot is in: a link waits for it (the chat it opens needs the connection). */
  isConnected(): boolean;
  subscribe(listener: () => void): () => void;
}

/** Act on one link: open, fill, or ask; a refusal is shown with its reason. */
export async function openLink(runtime: LinkRuntime, url: string): Promise<void> {
  const { parseDeepLink } = await import('../../../shared/deep-link');
  const result = parseDeepLink(url);
  if (!result.ok) return runtime.show({ kind: 'refused', reason: result.reason, detail: result.detail });
  const link = result.link;
  switch (link.kind) {
    case 'chat':
      await runtime.openChat(link.sessionId);
      return;
    case 'new':
      await runtime.newChatWithText(link.prompt);
      return;
    case 'mcp-add':
      runtime.show({
        kind: 'mcp-add',
        name: link.name,
        addAs: freeName(link.name, runtime.serverNames()),
        config: link.config,
      });
      return;
  }
}

/**
 * A name beside the servers there are: a link never replaces a server, whose stored secrets would
 * otherwise stay with the link's command (a settings patch merges into the entry).
 */
export function freeName(name: string, taken: readonly string[]): string {
  if (!taken.includes(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, 32 - suffix.length)}${suffix}`;
    if (!taken.includes(candidate) && MCP_SERVER_NAME.test(candidate)) return candidate;
  }
}

/** The person's answer to the question: Add puts the server in the settings, anything else drops it. */
export async function answerLink(runtime: LinkRuntime, add: boolean): Promise<void> {
  const link = runtime.link();
  if (!add || link?.kind !== 'mcp-add') return runtime.show(null);
  const refusal = await runtime.addServer(link.addAs, link.config);
  if (refusal !== null) return runtime.show({ ...link, error: refusal });
  runtime.show(null);
  runtime.showMcpSettings();
}

/** The browser's address as the page reads and rewrites it. */
export interface LinkWindow {
  location: { hash: string; pathname: string; search: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url?: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * Take links from wherever this host gives them — the bridge's link channel (Electron) and the
 * address's fragment (the browser mode; taken out of the address so a reload does not act again)
 * — and open each once the first snapshot is in.
 */
export function watchLinks(
  runtime: LinkRuntime,
  bridge: { onLink?(listener: (url: string) => void): () => void },
  win: LinkWindow,
): void {
  const waiting: string[] = [];
  const take = (url: string) => {
    if (runtime.isConnected()) void openLink(runtime, url);
    else waiting.push(url);
  };
  const unsubscribe = runtime.subscribe(() => {
    if (!runtime.isConnected()) return;
    unsubscribe();
    for (const url of waiting.splice(0)) void openLink(runtime, url);
  });
  bridge.onLink?.(take);
  const fromAddress = () => {
    const url = linkFromFragment(win.location.hash);
    if (url === null) return;
    win.history.replaceState(win.history.state, '', `${win.location.pathname}${win.location.search}`);
    take(url);
  };
  fromAddress();
  win.addEventListener('hashchange', fromAddress);
}
