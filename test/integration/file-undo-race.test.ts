// Undo and redo against a folder swapped for a link while they write (docs/file-history.md, "Undo";
// the writes go through src/main/node/tools/confined-io.ts): a turn writes and edits files in `d`,
// then a helper process exchanges `d` with a link to a folder holding a key (renameat2
// RENAME_EXCHANGE, in a tight loop) while the turn is undone and redone 40 times, taking the
// version from before at every question. Whatever each call answers, nothing outside the
// workspace is written, created or removed.
import type { ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppServices } from '../../src/main/node/app-services';
import { startLinkSwapper } from '../fixtures/link-swapper';
import { startServices } from './fixtures/services';

const ROUNDS = 40;
let root: string;
let workspace: string;
let keys: string;
let services: AppServices;
let swapper: ChildProcess | undefined;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-undo-race-')));
  workspace = join(root, 'ws');
  keys = join(root, 'keys');
  mkdirSync(join(workspace, 'd'), { recursive: true });
  mkdirSync(keys);
  writeFileSync(join(workspace, 'd', 'plan.md'), 'plan\n');
  writeFileSync(join(keys, 'credentials.key'), 'SECRET-KEY-0123456789\n');
  writeFileSync(join(keys, 'plan.md'), 'the key folder’s own plan\n');
  symlinkSync(keys, join(workspace, 'link'));
  services = (
    await startServices({ tools: { approval: 'auto', timeoutMs: 20_000 } }, { dataDir: join(root, 'data'), workspace })
  ).services;
});

afterAll(async () => {
  swapper?.kill('SIGKILL');
  await services?.dispose();
  rmSync(root, { recursive: true, force: true });
});

const tool = (name: string, args: object) => `tool:${name}:${JSON.stringify(args)}`;
const keyFolder = () =>
  Object.fromEntries(readdirSync(keys).map((name) => [name, readFileSync(join(keys, name), 'utf8')]));

it(`undo and redo, ${ROUNDS} times each while a folder and a link swap: nothing outside is touched`, async () => {
  const untouched = keyFolder();
  services.simulator!.setScript(
    [
      tool('write', { path: 'd/new.txt', content: 'agent\n' }),
      tool('edit', { path: 'd/plan.md', edits: [{ oldText: 'plan', newText: 'the agent’s plan' }] }),
      'ok',
    ].join(', '),
  );
  await services.session.prompt('change some files');
  const turnId = services.history.getSession(services.session.sessionId)!.turns.findLast((t) => t.role === 'user')!.id;
  expect(readFileSync(join(workspace, 'd', 'plan.md'), 'utf8')).toBe('the agent’s plan\n');
  expect(readFileSync(join(workspace, 'd', 'new.txt'), 'utf8')).toBe('agent\n');
  const choices = { 'd/new.txt': 'take', 'd/plan.md': 'take' } as const;
  swapper = await startLinkSwapper(root, join(workspace, 'd'), join(workspace, 'link'));
  const statuses = new Set<string>();
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const redo of [false, true]) {
      try {
        statuses.add(services.domains.files.undo({ turnId, redo, choices }).status);
      } catch (error) {
        statuses.add(`threw: ${(error as Error).message}`);
      }
      expect(keyFolder()).toEqual(untouched);
    }
  }
  swapper.kill('SIGKILL');
  expect(keyFolder()).toEqual(untouched);
  // The race was live: some calls ran whole (the real folder in place), others met the link.
  expect(statuses.has('done')).toBe(true);
  expect(statuses.size).toBeGreaterThan(1);
}, 180_000);
