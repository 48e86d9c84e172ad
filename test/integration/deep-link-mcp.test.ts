// A resolute:// link through the real composition root (docs/hosts.md, "Deep links"): the window's
// link handling (links/open-link.ts) over the command router — the commands the page's actions send
// (link-runtime.ts), as its bridge would carry them — to AppServices on a fresh data folder. An MCP server from a link is
// in the settings only after the person answers Add; Cancel leaves nothing; a server of the same
// name keeps its own entry; a `new` link opens a chat with the text in its box and sends nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import { CommandRouter } from '../../src/main/router/command-router';
import { answerLink, openLink, type LinkPrompt, type LinkRuntime } from '../../src/renderer/src/links/open-link';
import type { CommandName, CommandParams, CommandResult } from '../../src/shared/contract';
import { replyResult } from '../../src/shared/bridge';
import { errorText } from '../../src/shared/text';

let dataDir: string;
let services: AppServices;
let runtime: LinkRuntime;
const called: string[] = [];
/** What the window holds: the link on screen, the view, the new chat's box. */
const page = { link: null as LinkPrompt | null, view: 'chat', box: '' };

const SECRET = 'tok-from-the-link-93af';
const config = { command: 'node', args: ['-e', 'process.exit(1) ; echo $(id) | sh'], env: { API_TOKEN: SECRET } };
const link = (name: string) =>
  `resolute://mcp/add?name=${name}&config=${encodeURIComponent(Buffer.from(JSON.stringify(config)).toString('base64'))}`;
const servers = () => services.settings.get().mcp.servers;
const settingsFile = () => {
  const path = join(dataDir, 'settings.json');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-deep-link-'));
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0 } },
    publish: () => undefined,
  });
  const router = new CommandRouter(services.commands);
  let id = 1;
  const call = async <N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> => {
    called.push(method);
    return replyResult(await router.dispatch({ kind: 'request', id: id++, method, params }), method);
  };
  // link-runtime.ts's commands, over the router: resume, session.new, settings.update.
  runtime = {
    link: () => page.link,
    show: (shown) => void (page.link = shown),
    serverNames: () => Object.keys(servers()),
    openChat: (sessionId) => call('session.resume', { sessionId }),
    async newChatWithText(text) {
      await call('session.new', {});
      page.box = text;
    },
    async addServer(name, entry) {
      try {
        await call('settings.update', { patch: { mcp: { servers: { [name]: entry } } } });
        return null;
      } catch (error) {
        return errorText(error);
      }
    },
    showMcpSettings: () => void (page.view = 'settings'),
    isConnected: () => true,
    subscribe: () => () => undefined,
  };
});

afterAll(async () => {
  await services.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an MCP server from a link', () => {
  it('is asked about, with its configuration as the link gave it, and not added before the answer', async () => {
    await openLink(runtime, link('fromlink'));
    expect(page.link).toEqual({ kind: 'mcp-add', name: 'fromlink', addAs: 'fromlink', config });
    expect(servers()).toEqual({});
    expect(settingsFile()).not.toContain('fromlink');
    expect(called).not.toContain('settings.update');
  });

  it('Cancel adds nothing', async () => {
    await answerLink(runtime, false);
    expect(page.link).toBeNull();
    expect(servers()).toEqual({});
    expect(called).not.toContain('settings.update');
  });

  it('Add puts it in the settings, its env value sealed like a key, and shows Settings → MCP', async () => {
    await openLink(runtime, link('fromlink'));
    expect(servers()).toEqual({});
    await answerLink(runtime, true);
    expect(servers().fromlink).toMatchObject({ command: 'node', args: config.args });
    expect(settingsFile()).toContain('fromlink');
    expect(settingsFile()).not.toContain(SECRET);
    expect(page.link).toBeNull();
    expect(page.view).toBe('settings');
  });

  it('a second link of the same name is added beside it, never over it', async () => {
    await openLink(runtime, link('fromlink'));
    expect(page.link).toMatchObject({ name: 'fromlink', addAs: 'fromlink-2' });
    await answerLink(runtime, true);
    expect(Object.keys(servers()).sort()).toEqual(['fromlink', 'fromlink-2']);
  });

  it('a refused link shows its reason and changes nothing', async () => {
    const before = servers();
    await openLink(runtime, 'resolute://mcp/add?name=x&config=%%%');
    expect(page.link).toEqual({ kind: 'refused', reason: 'bad-base64' });
    await answerLink(runtime, true);
    expect(servers()).toEqual(before);
  });
});

describe('a new chat from a link', () => {
  it('opens a new chat with the text in its box, and sends nothing', async () => {
    const before = services.session.sessionId;
    await openLink(runtime, 'resolute://new?prompt=Explain%20%24(rm%20-rf%20~)');
    const sessionId = services.session.sessionId;
    expect(sessionId).not.toBe(before);
    expect(page.box).toBe('Explain $(rm -rf ~)');
    expect(called).toContain('session.new');
    expect(called).not.toContain('session.prompt');
    expect(services.history.getSession(sessionId)?.turns ?? []).toEqual([]);
  });
});
