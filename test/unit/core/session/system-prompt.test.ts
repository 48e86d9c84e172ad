// The system prompt's parts (src/main/core/session/system-prompt.ts): Resolute's words, the date in the
// person's own calendar, the tools section only when there are tools (bash's sandbox named), the
// project file with its cut noted, a tool's own rule as its definition words it, and the person's text added or replacing Resolute's words.
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, type SystemPromptInput } from '../../../../src/main/core/session/system-prompt';
import { bashTool } from '../../../../src/main/node/tools/bash-tool';

const bash = bashTool({ platform: 'linux', bwrap: '/usr/bin/bwrap', sandboxExec: '' }, []);

const base: SystemPromptInput = {
  tools: ['read', 'bash'],
  guidelines: [bash.guideline!({ network: false })],
  workspace: '/home/me/proj',
  now: new Date(2026, 11, 1, 23, 30), // local time: still the 1st, whatever the zone
  platform: 'Linux (x64)',
  custom: { text: '', mode: 'add' },
  project: null,
};

describe('buildSystemPrompt', () => {
  it('names the workspace, the tools, the sandbox, the date and the platform', () => {
    const prompt = buildSystemPrompt(base);
    expect(prompt).toMatch(/^You are Resolute/);
    expect(prompt).toContain("Today is 2026-12-01 (Tuesday). The person's computer runs Linux (x64).");
    expect(prompt).toContain('You work in the folder /home/me/proj (the workspace) with these tools: read, bash.');
    expect(prompt).toContain('bash runs in a sandbox: only the workspace is writable, and there is no network.');
    const online = buildSystemPrompt({ ...base, guidelines: [bash.guideline!({ network: true })] });
    expect(online).toContain('- bash runs in a sandbox: only the workspace is writable.');
  });

  it('has no tools section without tools, and no bash line without bash', () => {
    expect(buildSystemPrompt({ ...base, tools: [] })).not.toContain('## Tools');
    expect(buildSystemPrompt({ ...base, tools: ['read'], guidelines: [] })).not.toContain('bash runs');
  });

  it('adds the project file, noting a cut', () => {
    const project = { file: 'AGENTS.md', text: 'Use tabs.\n', truncated: true, capBytes: 32768 };
    expect(buildSystemPrompt({ ...base, project })).toContain(
      '## Project instructions (AGENTS.md in the workspace)\n\nUse tabs.\n\n[AGENTS.md is longer than 32 KB; only its start is shown.]',
    );
    expect(buildSystemPrompt({ ...base, project: { ...project, text: '  \n' } })).not.toContain('Project instructions');
  });

  it("adds the person's text last, or lets it replace Resolute's own words only", () => {
    const added = buildSystemPrompt({ ...base, custom: { text: ' Be terse. ', mode: 'add' } });
    expect(added).toMatch(/^You are Resolute/);
    expect(added).toMatch(/## The person's instructions\n\nBe terse\.$/);
    const replaced = buildSystemPrompt({ ...base, custom: { text: 'Be terse.', mode: 'replace' } });
    expect(replaced).not.toContain('You are Resolute');
    expect(replaced).toMatch(/^Today is/);
    expect(replaced).toContain('## Tools');
    // Replace with nothing typed keeps Resolute's words.
    expect(buildSystemPrompt({ ...base, custom: { text: '', mode: 'replace' } })).toMatch(/^You are Resolute/);
  });
});
