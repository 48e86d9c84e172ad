// The agent's instructions and a local server's limits, over real HTTP (docs/tools.md,
// "Instructions"): the request's system message holds Resolute's own prompt (the workspace, the
// tools, the date), the workspace's AGENTS.md (or CLAUDE.md; cut at its cap, never through a link
// out) and the person's `agent.systemPrompt` — added, or replacing Resolute's own words — and an
// OpenAI-compatible server is sent no 1,024-token cap. The simulator plays the server.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';

let root: string;
let ws: string;
let services: AppServices | null = null;
const sims: SimulatorServer[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-instructions-'));
  ws = join(root, 'ws');
  mkdirSync(ws);
});
afterEach(async () => {
  await services?.dispose();
  services = null;
  await Promise.all(sims.splice(0).map((sim) => sim.stop()));
  rmSync(root, { recursive: true, force: true });
});

async function start(overlay: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<AppServices> {
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir: join(root, 'data'),
    workspace: ws,
    overlay,
    publish: () => undefined,
    ...extra,
  });
  return services;
}

async function systemPromptOf(app: AppServices, sim = app.simulator!): Promise<string> {
  sim.clearRequests();
  await app.session.prompt('hello');
  const system = sim.requests.at(-1)!.messages.find((m) => m.role === 'system' || m.role === 'developer');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}

describe('the system message', () => {
  it("holds Resolute's prompt, the workspace's AGENTS.md and the person's instructions", async () => {
    writeFileSync(join(ws, 'AGENTS.md'), '# House rules\nRun the tests with `make check`.\n');
    writeFileSync(join(ws, 'CLAUDE.md'), 'not this one');
    const app = await start({ agent: { systemPrompt: 'Always answer in haiku.' } });
    const prompt = await systemPromptOf(app);
    expect(prompt).toMatch(/^You are Resolute/);
    expect(prompt).toContain(`You work in the folder ${ws}`);
    expect(prompt).toMatch(/read, ls, find, grep, write, edit, bash/);
    expect(prompt).toMatch(/Today is \d{4}-\d{2}-\d{2} \(\w+day\)/);
    expect(prompt).toContain('## Project instructions (AGENTS.md in the workspace)');
    expect(prompt).toContain('Run the tests with `make check`.');
    expect(prompt).not.toContain('not this one');
    expect(prompt).toMatch(/## The person's instructions\n\nAlways answer in haiku\.$/);
  });

  it('a changed setting or AGENTS.md reaches the next request; replace drops only Resolute’s own words', async () => {
    const app = await start();
    expect(await systemPromptOf(app)).not.toContain('Project instructions');
    writeFileSync(join(ws, 'CLAUDE.md'), 'Prefer small commits.');
    app.settings.update({ agent: { systemPrompt: 'You are a pirate.', systemPromptMode: 'replace' } });
    const prompt = await systemPromptOf(app);
    expect(prompt).not.toContain('You are Resolute');
    expect(prompt).toContain('## Project instructions (CLAUDE.md in the workspace)');
    expect(prompt).toContain(`You work in the folder ${ws}`);
    expect(prompt).toContain('You are a pirate.');
  });

  it('cuts a long AGENTS.md with a note, and never reads one that links out of the workspace', async () => {
    writeFileSync(join(ws, 'AGENTS.md'), `${'a line of rules\n'.repeat(4000)}THE END\n`);
    const app = await start();
    const prompt = await systemPromptOf(app);
    expect(prompt).toContain('[AGENTS.md is longer than 32 KB; only its start is shown.]');
    expect(prompt).not.toContain('THE END');
    rmSync(join(ws, 'AGENTS.md'));
    writeFileSync(join(root, 'secret.txt'), 'TOP SECRET');
    symlinkSync(join(root, 'secret.txt'), join(ws, 'AGENTS.md'));
    expect(await systemPromptOf(app)).not.toContain('TOP SECRET');
  });

  it('has no tools section when the tools are off', async () => {
    const app = await start({ tools: { enabled: false } });
    const prompt = await systemPromptOf(app);
    expect(prompt).not.toContain('## Tools');
    expect(prompt).toMatch(/^You are Resolute/);
  });
});

describe('an OpenAI-compatible server', () => {
  it('is sent no output cap (the 1,024-token cut is gone), and the simulator keeps its own', async () => {
    const server = new SimulatorServer({ chunkDelayMs: 1 });
    sims.push(server);
    const url = await server.start();
    const app = await start({}, { baseUrl: url, model: 'llama3.2' });
    await systemPromptOf(app, server);
    expect(server.requests.at(-1)!.maxTokens).toBeNull();
    expect(app.session.model.contextWindow).toBeGreaterThanOrEqual(128_000);
  });
});

describe("a conversation's own instructions and the AGENTS.md it uses", () => {
  it('says which file is used, with its text; its own instructions stand in for the setting, for it alone', async () => {
    writeFileSync(join(ws, 'AGENTS.md'), 'Use tabs.\n');
    const app = await start({ agent: { systemPrompt: 'From the settings.' } });
    expect(app.domains.session.instructions()).toEqual({
      project: { file: 'AGENTS.md', text: 'Use tabs.\n', truncated: false },
      override: null,
    });
    const own = { text: 'Only for this chat.', mode: 'add' as const };
    expect(app.domains.session.setInstructions(own).override).toEqual(own);
    let prompt = await systemPromptOf(app);
    expect(prompt).toContain('Only for this chat.');
    expect(prompt).not.toContain('From the settings.');
    expect(prompt).toContain('Use tabs.');
    const first = app.session.sessionId;
    app.domains.session.newSession();
    expect(app.domains.session.instructions().override).toBeNull();
    expect(await systemPromptOf(app)).toContain('From the settings.');
    app.domains.session.resumeSession(first);
    expect(app.domains.session.instructions().override).toEqual(own);
    app.domains.session.setInstructions({ text: 'A pirate, here.', mode: 'replace' });
    prompt = await systemPromptOf(app);
    expect(prompt).not.toContain('You are Resolute');
    expect(prompt).toContain('A pirate, here.');
    app.domains.session.setInstructions(null);
    expect(await systemPromptOf(app)).toContain('From the settings.');
  });

  it('are kept in the history: after a restart the resumed chat uses them again', async () => {
    let app = await start({ agent: { systemPrompt: 'From the settings.' } });
    const own = { text: 'Kept across restarts.', mode: 'add' as const };
    app.domains.session.setInstructions(own);
    expect(await systemPromptOf(app)).toContain('Kept across restarts.');
    const id = app.session.sessionId;
    await app.dispose();
    services = null;

    app = await start({ agent: { systemPrompt: 'From the settings.' } });
    app.domains.session.resumeSession(id);
    expect(app.domains.session.instructions().override).toEqual(own);
    const prompt = await systemPromptOf(app);
    expect(prompt).toContain('Kept across restarts.');
    expect(prompt).not.toContain('From the settings.');
  });
});
