// The provider keys the app takes from its environment (docs/mcp.md, "Confinement"): read once at
// start into memory and removed from process.env, so no program the app starts — a browser, rg,
// git, an MCP server — inherits them. On Linux /proc/<pid>/environ still shows the start-up block,
// which only a sandbox hides. Called by AppServices when it builds the credential vault.

/** Each provider's variables, in pi-ai's order of precedence (an OAuth token before a key). */
const ENV_KEYS: Record<string, readonly string[]> = {
  anthropic: ['ANTHROPIC_OAUTH_TOKEN', 'ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  google: ['GEMINI_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
};

/** The environment's key of each provider that has one; every one of these variables is removed from `env`. */
export function takeEnvKeys(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const [provider, names] of Object.entries(ENV_KEYS)) {
    const found = names.map((name) => env[name]).find((value) => value !== undefined && value !== '');
    if (found !== undefined) keys[provider] = found;
    for (const name of names) delete env[name];
  }
  return keys;
}
