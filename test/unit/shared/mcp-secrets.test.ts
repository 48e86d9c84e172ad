// The masking of MCP secrets for clients (src/shared/mcp-secrets.ts; docs/mcp.md, "Secrets"):
// masked on the way out, a masked value sent back stands for the stored one (also after a rename),
// one that matches nothing is refused, and "always allow" hashes the same in the window.
import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/shared/mcp';
import { unmaskMcpPatch, withMaskedMcpSecrets } from '../../../src/shared/mcp-secrets';
import { isMaskedSecret, maskSecret, mcpConfigHash } from '../../../src/shared/mcp-values';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

const servers: Record<string, McpServerConfig> = {
  gh: { command: 'npx', env: { TOKEN: 'ghp_abcdefghijklmnop1234', SHORT: 'pw' } },
  web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer xyz' } },
};

describe('MCP secrets for clients', () => {
  it('masks every env value and header, showing at most the last four characters of a long one', () => {
    const shown = withMaskedMcpSecrets({ ...DEFAULT_SETTINGS, mcp: { ...DEFAULT_SETTINGS.mcp, servers } });
    const gh = shown.mcp.servers.gh as { env: Record<string, string> };
    expect(gh.env.TOKEN).toMatch(/^••••1234#[0-9a-f]{8}$/);
    expect(gh.env.SHORT).toMatch(/^••••#[0-9a-f]{8}$/);
    expect(JSON.stringify(shown)).not.toMatch(/ghp_|Bearer xyz|"pw"/);
    expect(maskSecret(gh.env.TOKEN)).toBe(gh.env.TOKEN);
    expect(isMaskedSecret('plain')).toBe(false);
  });

  it('hashes a masked entry as its real one, so "always allow" holds in the window', () => {
    const masked = withMaskedMcpSecrets({ ...DEFAULT_SETTINGS, mcp: { ...DEFAULT_SETTINGS.mcp, servers } }).mcp.servers;
    expect(mcpConfigHash(masked.gh)).toBe(mcpConfigHash(servers.gh));
    expect(mcpConfigHash(masked.web)).toBe(mcpConfigHash(servers.web));
    expect(mcpConfigHash({ command: 'npx', env: { TOKEN: 'other' } })).not.toBe(mcpConfigHash(servers.gh));
  });

  it('puts a masked value sent back to the value it masks, by the same server or a renamed one', () => {
    const token = maskSecret('ghp_abcdefghijklmnop1234');
    const patch = { mcp: { servers: { gh: null, gh2: { command: 'npx', env: { TOKEN: token, NEW: 'typed' } } } } };
    const result = unmaskMcpPatch(patch, servers);
    expect(result).toEqual({
      ok: true,
      patch: {
        mcp: {
          servers: { gh: null, gh2: { command: 'npx', env: { TOKEN: 'ghp_abcdefghijklmnop1234', NEW: 'typed' } } },
        },
      },
    });
  });

  it('refuses a masked value that matches no stored secret', () => {
    const result = unmaskMcpPatch(
      { mcp: { servers: { web: { headers: { Authorization: '••••#00000000' } } } } },
      servers,
    );
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^mcp\.servers\.web\.headers\.Authorization: /) });
    expect(unmaskMcpPatch({ retry: { enabled: false } }, servers)).toEqual({
      ok: true,
      patch: { retry: { enabled: false } },
    });
  });
});
