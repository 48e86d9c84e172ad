// The MCP conformance suite's client scenarios (@modelcontextprotocol/conformance, a dev
// dependency) against Resolute's own client code (fixtures/mcp-conformance-client.ts drives
// McpConnection): initialize, tools_call and sse-retry must pass every check. Not run: the
// elicitation and sampling scenarios (Resolute declares neither capability) and the auth/* ones
// (OAuth is not supported yet) — docs/mcp.md, "What is left". The suite is built for Node 22; on
// Node 20 fixtures/conformance-node20.mjs supplies the one fs function its bundle imports.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from './fixtures/mcp-servers';

const require = createRequire(import.meta.url);
const SUITE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const TSX = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href;
const CLIENT = `${process.execPath} --import ${TSX} ${join(FIXTURES, 'mcp-conformance-client.ts')}`;
const cwd = mkdtempSync(join(tmpdir(), 'resolute-conformance-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function scenario(name: string): Promise<{ code: number; output: string }> {
  const args = ['--import', join(FIXTURES, 'conformance-node20.mjs'), SUITE, 'client', '--command', CLIENT];
  return new Promise((done) => {
    execFile(process.execPath, [...args, '--scenario', name], { cwd, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

describe('MCP conformance, client scenarios', () => {
  it.each([
    ['initialize', 1],
    ['tools_call', 1],
    ['sse-retry', 3],
  ])('%s: every check passes', { timeout: 60_000 }, async (name, checks) => {
    const { code, output } = await scenario(name);
    expect(output).toContain(`Passed: ${checks}/${checks}, 0 failed`);
    expect(code).toBe(0);
  });
});
