// find and grep against a link swapped in while ripgrep walks (issue 40, item 2;
// src/main/node/tools/ripgrep.ts, search-sandbox.ts): a helper process exchanges a workspace folder
// `d` with a link to a folder holding a key (renameat2 RENAME_EXCHANGE, in a tight loop) while the
// real tools search 100 times each. Nothing of the key's folder may come back. Real ripgrep, real
// bubblewrap, a real race (test/fixtures/link-swapper.ts).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFind } from '../../../../src/main/node/tools/find-tool';
import { runGrep } from '../../../../src/main/node/tools/grep-tool';
import { startLinkSwapper } from '../../../fixtures/link-swapper';

const CALLS = 100;

let root: string;
let ws: string;
let data: string;
let swapper: ChildProcess;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-search-race-')));
  ws = join(root, 'ws');
  data = join(root, 'data');
  mkdirSync(join(ws, 'd'), { recursive: true });
  mkdirSync(data);
  writeFileSync(join(ws, 'd', 'ordinary.txt'), 'nothing here\n');
  writeFileSync(join(data, '.credentials.key'), 'SECRET-KEY-0123456789\n');
  symlinkSync(data, join(ws, 'link'));
  swapper = await startLinkSwapper(root, join(ws, 'd'), join(ws, 'link'));
});

afterAll(() => {
  swapper?.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const leaks = (texts: string[]) => texts.filter((text) => /SECRET-KEY|credentials/.test(text));
/** The searches did walk the swapped folder (the race was live, not every call an error). */
const walked = (texts: string[]) => texts.filter((text) => text.includes('ordinary.txt')).length;

/** A search may fail (a folder gone mid-walk is an error); only what comes back counts. */
async function settle(search: () => Promise<{ text: string }>): Promise<string> {
  try {
    return (await search()).text;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('a folder exchanged with a link to the key’s folder while the tools search', () => {
  it(`grep, ${CALLS} calls: the key never comes back`, async () => {
    const texts: string[] = [];
    for (let i = 0; i < CALLS; i += 1)
      texts.push(await settle(() => runGrep(ws, { pattern: 'SECRET|nothing', limit: 1000 }, { hidden: [data] })));
    expect(leaks(texts)).toEqual([]);
    expect(walked(texts)).toBeGreaterThan(0);
  }, 120_000);

  it(`find, ${CALLS} calls: no name from the key’s folder comes back`, async () => {
    const texts: string[] = [];
    for (let i = 0; i < CALLS; i += 1)
      texts.push(await settle(() => runFind(ws, { pattern: '*' }, { hidden: [data] })));
    expect(leaks(texts)).toEqual([]);
    expect(walked(texts)).toBeGreaterThan(0);
  }, 120_000);
});
