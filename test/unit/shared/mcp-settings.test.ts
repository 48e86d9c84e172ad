// mcp.servers as a setting (docs/mcp.md, "Configuration"): Claude desktop's mcpServers shape
// accepted as is from --set, a bad entry refused naming its field, a null in a patch removing a
// server, the hash an "always allow" is tied to, and the import of other apps' config files.
import { describe, expect, it } from 'vitest';
import { importMcpConfig, type McpServerConfig, type McpSettings } from '../../../src/shared/mcp';
import { mcpAlwaysAllowed, mcpConfigHash, mcpToolName } from '../../../src/shared/mcp-values';
import { applySettingsPatch, DEFAULT_SETTINGS, parseSetFlag, type Settings } from '../../../src/shared/settings';

function apply(patch: unknown): Settings {
  const result = applySettingsPatch(DEFAULT_SETTINGS, patch);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const refusal = (patch: unknown) => {
  const result = applySettingsPatch(DEFAULT_SETTINGS, patch);
  return result.ok ? 'accepted' : result.error;
};

describe('mcp.servers', () => {
  it('defaults to no servers and a 60 s tool time limit', () => {
    expect(DEFAULT_SETTINGS.mcp).toEqual({ servers: {}, toolTimeoutMs: 60_000, allowed: {} });
  });

  it("takes --set 'mcp.servers={…}' in Claude desktop's shape, stdio and HTTP", () => {
    const flag = parseSetFlag(
      'mcp.servers={"fs":{"command":"npx","args":["-y","x"],"env":{"A":"1"}},"web":{"url":"http://127.0.0.1:9/mcp","headers":{"X":"y"},"enabled":false}}',
    );
    expect(flag.ok).toBe(true);
    const settings = apply(flag.ok ? flag.value : {});
    expect(settings.mcp.servers.fs).toEqual({ command: 'npx', args: ['-y', 'x'], env: { A: '1' } });
    expect(settings.mcp.servers.web).toMatchObject({ url: 'http://127.0.0.1:9/mcp', enabled: false });
  });

  it.each([
    [{ fs: { command: 'x', args: [1] } }, 'mcp.servers.fs.args.0: must be a string'],
    [{ fs: { command: '' } }, 'mcp.servers.fs.command: must not be empty'],
    [{ fs: { url: 'ftp://host' } }, 'mcp.servers.fs.url: must be an http:// or https:// URL'],
    [{ fs: { command: 'x', toolTimeoutMs: 5 } }, 'mcp.servers.fs.toolTimeoutMs: must be at least 1000 ms'],
    [{ fs: { command: 'x', bogus: true } }, 'mcp.servers.fs: Unrecognized key: "bogus"'],
    [{ fs: 'npx' }, 'mcp.servers.fs: must be an object'],
    [{ 'a b': { command: 'x' } }, 'mcp.servers.a b'],
  ])('refuses %j naming the field', (servers, message) => {
    expect(refusal({ mcp: { servers } })).toContain(message);
  });

  it('a null in a patch removes that server and keeps the others', () => {
    const two = apply({ mcp: { servers: { a: { command: 'a' }, b: { command: 'b' } } } });
    const result = applySettingsPatch(two, { mcp: { servers: { a: null } } });
    expect(result.ok && Object.keys(result.value.mcp.servers)).toEqual(['b']);
  });
});

describe('always allowed, tied to the configuration', () => {
  const settings = (command: string, args: string[]): McpSettings => ({
    servers: { fs: { command, args } },
    toolTimeoutMs: 60_000,
    allowed: { fs: { config: mcpConfigHash({ command: 'npx', args: ['a'] }), tools: ['read_file'] } },
  });

  it('holds for the same command and arguments, only for the tools named', () => {
    expect(mcpAlwaysAllowed(settings('npx', ['a']), 'fs', 'read_file')).toBe(true);
    expect(mcpAlwaysAllowed(settings('npx', ['a']), 'fs', 'write_file')).toBe(false);
  });

  it('is revoked when the command or the arguments change', () => {
    expect(mcpAlwaysAllowed(settings('npx', ['b']), 'fs', 'read_file')).toBe(false);
    expect(mcpAlwaysAllowed(settings('node', ['a']), 'fs', 'read_file')).toBe(false);
  });

  it('a URL change revokes it; enabling or disabling does not', () => {
    expect(mcpConfigHash({ url: 'http://a/mcp' })).not.toBe(mcpConfigHash({ url: 'http://b/mcp' }));
    const disabled: McpServerConfig = { url: 'http://a/mcp', enabled: false };
    expect(mcpConfigHash(disabled)).toBe(mcpConfigHash({ url: 'http://a/mcp' }));
  });

  it('giving a server roots revokes it (what it reaches may change); an entry without roots keeps its hash', () => {
    const plain = mcpConfigHash({ command: 'npx', args: ['a'] });
    expect(plain).toBe('25e52e4d'); // as before roots existed: no allowance is revoked by the upgrade
    expect(mcpConfigHash({ command: 'npx', args: ['a'], roots: false })).toBe(plain);
    expect(mcpConfigHash({ command: 'npx', args: ['a'], roots: true })).not.toBe(plain);
    expect(mcpConfigHash({ url: 'http://a/mcp', roots: true })).not.toBe(mcpConfigHash({ url: 'http://a/mcp' }));
  });
});

describe('tool names', () => {
  it('are mcp__<server>__<tool>, cut to what providers accept', () => {
    expect(mcpToolName('everything', 'get-sum')).toBe('mcp__everything__get-sum');
    expect(mcpToolName('s', 'a.b c')).toBe('mcp__s__a_b_c');
    expect(mcpToolName('s', 'x'.repeat(100))).toHaveLength(64);
  });
});

describe('importing other apps’ config files', () => {
  it('reads claude_desktop_config.json, keeping what Resolute knows', () => {
    const text = JSON.stringify({
      globalShortcut: 'x',
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        remote: { type: 'http', url: 'https://example.com/mcp', headers: { A: 'b' } },
        'old one': { command: 'node', disabled: true, autoApprove: ['x'] },
        broken: { args: ['no command'] },
      },
    });
    const result = importMcpConfig(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.servers).toEqual({
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
      remote: { type: 'http', url: 'https://example.com/mcp', headers: { A: 'b' } },
      old_one: { command: 'node', enabled: false },
    });
    expect(result.skipped).toEqual([expect.stringMatching(/^broken: /)]);
  });

  it('says which names it changed to fit (a server name is letters, digits, _ and -)', () => {
    const text = JSON.stringify({ mcpServers: { 'bad name!': { command: 'node' }, fine: { command: 'node' } } });
    const result = importMcpConfig(text);
    expect(result.ok && result.servers).toEqual({ bad_name_: { command: 'node' }, fine: { command: 'node' } });
    expect(result.ok && result.renamed).toEqual([{ from: 'bad name!', to: 'bad_name_' }]);
  });

  it('lists the VS Code inputs its entries use, fills them from the values given, and keeps ${workspaceFolder}', () => {
    const text = JSON.stringify({
      inputs: [
        { type: 'promptString', id: 'gh-token', description: 'GitHub token', password: true },
        { type: 'promptString', id: 'unused', description: 'Not referenced' },
      ],
      servers: {
        github: {
          type: 'stdio',
          command: 'npx',
          args: ['server-github', '${workspaceFolder}'],
          env: { GITHUB_TOKEN: '${input:gh-token}' },
        },
        api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:key}' } },
      },
    });
    const asked = importMcpConfig(text);
    expect(asked.ok && asked.inputs).toEqual([
      { id: 'gh-token', description: 'GitHub token', password: true },
      { id: 'key', description: 'key', password: false },
    ]);
    const filled = importMcpConfig(text, { 'gh-token': 'ghp_1', key: 'k2' });
    expect(filled.ok && filled.servers).toEqual({
      github: {
        type: 'stdio',
        command: 'npx',
        args: ['server-github', '${workspaceFolder}'],
        env: { GITHUB_TOKEN: 'ghp_1' },
      },
      api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer k2' } },
    });
  });

  it('says what is wrong with a file that is not one', () => {
    expect(importMcpConfig('{')).toMatchObject({ ok: false, error: expect.stringMatching(/^not JSON/) });
    expect(importMcpConfig('{"a":1}')).toEqual({ ok: false, error: 'no "mcpServers" object in this file' });
  });
});
