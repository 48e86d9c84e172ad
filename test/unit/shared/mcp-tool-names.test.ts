// MCP tool names that would clash once made into `mcp__<server>__<tool>` (issue 40, item 16):
// each shape — a `__` inside a server or tool name, a cut at 64 characters, characters made `_` —
// gives every tool in the clash a suffix, the same whatever order the servers came in, and a
// tool whose name no other shares keeps its plain name.
import { describe, expect, it } from 'vitest';
import { mcpToolName, mcpToolNames } from '../../../src/shared/mcp-values';

const names = (tools: { server: string; tool: string }[]) =>
  Object.fromEntries(mcpToolNames(tools).map((entry) => [`${entry.server}/${entry.tool}`, entry]));

const distinct = (tools: { server: string; tool: string }[]) => {
  const offered = mcpToolNames(tools).map((entry) => entry.name);
  expect(new Set(offered).size).toBe(offered.length);
  for (const name of offered) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  return offered;
};

describe('mcpToolNames', () => {
  it('a/b__c and a__b/c: both suffixed, neither takes the other’s name', () => {
    const tools = [
      { server: 'a', tool: 'b__c' },
      { server: 'a__b', tool: 'c' },
    ];
    expect(mcpToolName('a', 'b__c')).toBe(mcpToolName('a__b', 'c'));
    distinct(tools);
    const got = names(tools);
    expect(got['a/b__c']).toMatchObject({ renamed: true, name: expect.stringMatching(/^mcp__a__b__c_[0-9a-f]{8}$/) });
    expect(got['a__b/c']).toMatchObject({ renamed: true, name: expect.stringMatching(/^mcp__a__b__c_[0-9a-f]{8}$/) });
  });

  it('two names alike in their first 64 characters', () => {
    const long = 'x'.repeat(70);
    const tools = [
      { server: 's', tool: `${long}1` },
      { server: 's', tool: `${long}2` },
    ];
    const [one, two] = distinct(tools);
    expect(one).toHaveLength(64);
    expect(two).toHaveLength(64);
  });

  it('a.b and a_b, and a name of characters that all become _', () => {
    distinct([
      { server: 's', tool: 'a.b' },
      { server: 's', tool: 'a_b' },
      { server: 's', tool: 'a b' },
      { server: 's', tool: 'ü' },
      { server: 's', tool: 'é' },
    ]);
  });

  it('a tool named like another’s suffixed name does not take it', () => {
    const first = mcpToolNames([
      { server: 's', tool: 'a.b' },
      { server: 's', tool: 'a_b' },
    ]);
    const squatter = first[0].name.slice('mcp__s__'.length);
    distinct([...first.map(({ server, tool }) => ({ server, tool })), { server: 's', tool: squatter }]);
  });

  it('leaves unclashing names plain, and does not depend on the order of the tools', () => {
    const tools = [
      { server: 'fs', tool: 'read_file' },
      { server: 'a', tool: 'b__c' },
      { server: 'a__b', tool: 'c' },
    ];
    expect(names(tools)['fs/read_file']).toEqual({
      server: 'fs',
      tool: 'read_file',
      name: 'mcp__fs__read_file',
      renamed: false,
    });
    expect(mcpToolNames([...tools].reverse())).toEqual(mcpToolNames(tools));
  });

  it('a tool announced twice by one server is one tool', () => {
    expect(
      mcpToolNames([
        { server: 's', tool: 't' },
        { server: 's', tool: 't' },
      ]),
    ).toEqual([{ server: 's', tool: 't', name: 'mcp__s__t', renamed: false }]);
  });
});
