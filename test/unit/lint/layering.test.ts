// The layering rule of docs/architecture.md, checked against the real ESLint config: each forbidden import
// is reported in the folder it is forbidden in, and allowed imports pass. Proves the rule can
// fail `npm test` (lint runs first there).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.some((m) => m.ruleId === '@typescript-eslint/no-restricted-imports');
}

describe('layering lint rule', () => {
  it.each([
    ['src/main/core/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/core/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['src/main/core/x.ts', "import fs from 'fs';\nexport const a = fs;"],
    ['src/main/core/x.ts', "import Database from 'better-sqlite3';\nexport const a = Database;"],
    ['src/main/core/x.ts', "import { AppServices } from '../node/app-services';\nexport const a = AppServices;"],
    ['src/main/core/x.ts', "import { EventHub } from '../router/event-hub';\nexport const a = EventHub;"],
    ['src/main/router/x.ts', "import { AppServices } from '../node/app-services';\nexport const a = AppServices;"],
    ['src/main/node/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    [
      'src/main/node/x.ts',
      "import { CommandRouter } from '../router/command-router';\nexport const a = CommandRouter;",
    ],
    ['src/main/modes/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/shared/x.ts', "import { join } from 'node:path';\nexport const a = join;"],
    ['src/shared/x.ts', "import { AgentSession } from '../main/core/agent-session';\nexport const a = AgentSession;"],
    [
      'src/shared/retry-policy/x.ts',
      "import { AgentSession } from '../../main/core/agent-session';\nexport const a = AgentSession;",
    ],
    ['src/shared/retry-policy/x.ts', "import { useState } from 'react';\nexport const a = useState;"],
    ['src/renderer/src/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;"],
    ['src/renderer/src/x.ts', "import { streamSimple } from '@mariozechner/pi-ai';\nexport const a = streamSimple;"],
    [
      'src/renderer/src/x.ts',
      "import { AgentSession } from '../../main/core/agent-session';\nexport const a = AgentSession;",
    ],
    ['src/preload/x.ts', "import { AgentSession } from '../main/core/agent-session';\nexport const a = AgentSession;"],
    // The retry wing only through its door.
    ['src/main/core/x.ts', "import { decideRetry } from './retry/decide-retry';\nexport const a = decideRetry;"],
    ['src/main/core/tools/x.ts', "import { decideRetry } from '../retry/decide-retry';\nexport const a = decideRetry;"],
    [
      'src/main/node/x.ts',
      "import { classifyError } from '../core/retry/classify-error';\nexport const a = classifyError;",
    ],
    [
      'src/main/modes/rpc/x.ts',
      "import { RetryController } from '../../core/retry/retry-controller';\nexport const a = RetryController;",
    ],
    // In the core, only core/llm knows that pi-ai loads late.
    ['src/main/core/tools/x.ts', "import { piRuntime } from '../llm/pi-runtime';\nexport const a = piRuntime;"],
    ['src/main/core/session/x.ts', "import { lazySchema } from '../llm/pi-runtime';\nexport const a = lazySchema;"],
    // The retry wing is a leaf: only src/shared and the core's ports.
    [
      'src/main/core/retry/x.ts',
      "import { AgentSession } from '../session/agent-session';\nexport const a = AgentSession;",
    ],
    [
      'src/main/core/retry/x.ts',
      "import type { TurnRecorder } from '../session/turn-recorder';\nexport type A = TurnRecorder;",
    ],
    ['src/main/core/retry/x.ts', "import { piRuntime } from '../llm/pi-runtime';\nexport const a = piRuntime;"],
    ['src/main/core/retry/x.ts', "import type { ToolFault } from '../tools/tool-gate';\nexport type A = ToolFault;"],
    [
      'src/main/core/retry/x.ts',
      "import type { AssistantMessage } from '@mariozechner/pi-ai';\nexport type A = AssistantMessage;",
    ],
  ])('%s: forbidden import is reported', async (file, code) => {
    expect(await restricted(file, code)).toBe(true);
  });

  it.each([
    ['src/main/core/x.ts', "import { classifyError } from './classify-error';\nexport const a = classifyError;"],
    ['src/main/core/x.ts', "import type { Settings } from '../../shared/settings';\nexport type A = Settings;"],
    ['src/main/node/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['src/main/electron/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/preload/x.ts', "import { contextBridge } from 'electron';\nexport const a = contextBridge;"],
    ['src/shared/x.ts', "import type { SessionEvent } from './events';\nexport type A = SessionEvent;"],
    ['src/shared/retry-policy/x.ts', "import type { Settings } from '../settings';\nexport type A = Settings;"],
    [
      'src/renderer/src/x.ts',
      "import { describeTable } from '../../shared/retry-policy/decision-table';\nexport const a = describeTable;",
    ],
    ['src/main/modes/x.ts', "import { EventHub } from '../router/event-hub';\nexport const a = EventHub;"],
    ['src/main/node/x.ts', "import { RetryController } from '../core/retry';\nexport const a = RetryController;"],
    ['src/main/core/x.ts', "import { RetryController } from './retry/index';\nexport const a = RetryController;"],
    ['src/main/core/retry/x.ts', "import { decideRetry } from './decide-retry';\nexport const a = decideRetry;"],
    [
      'src/main/core/retry/x.ts',
      "import type { UsageLimitResult } from '../ports';\nexport type A = UsageLimitResult;",
    ],
    [
      'src/main/core/retry/x.ts',
      "import { resolveRow } from '../../../shared/retry-policy/decision-table';\nexport const a = resolveRow;",
    ],
  ])('%s: allowed import passes', async (file, code) => {
    expect(await restricted(file, code)).toBe(false);
  });
});
