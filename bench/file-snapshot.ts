// Benchmark: what the file history costs a `bash` call (docs/file-history.md, "Cost"). In an
// unchanged 50,000-file workspace, the snapshot before and after a command (WorkspaceSnapshots,
// reading nothing that did not change, walking nothing when its change journal heard nothing), and
// the same with a file edited before each call (the walk), against the sandbox's own start
// (runSandboxed of `true`) in the same run, alternating; then the history's bytes per recorded change: 1,000 tool results
// with a 1 KB file's change each against 1,000 without, written through the real store.
// Linux with bubblewrap only. Run: npx tsx bench/file-snapshot.ts [files] [calls]
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeChange, hashBytes } from '../src/main/node/file-history/file-versions';
import { WorkspaceSnapshots } from '../src/main/node/file-history/workspace-snapshot';
import { openHistoryStore } from '../src/main/node/history/sqlite-history-store';
import { runSandboxed } from '../src/main/node/tools/bash-sandbox';
import { defaultSandboxHost } from '../src/main/node/tools/executables';
import type { ChatMessage } from '../src/shared/messages';
import { median, percentile, report, tempDir, timeIt } from './lib';

const FILES = Number(process.argv[2] ?? 50_000);
const CALLS = Number(process.argv[3] ?? 20);
const root = tempDir('file-snapshot');
const workspace = join(root, 'ws');

/** FILES small files, 100 a folder, two levels deep. */
function makeWorkspace(): void {
  for (let i = 0; i < FILES; i += 1) {
    const dir = join(workspace, `d${Math.floor(i / 10_000)}`, `e${Math.floor(i / 100) % 100}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`.repeat(4));
  }
}

async function snapshotCost(): Promise<void> {
  const store = openHistoryStore(join(root, 'snap.db'));
  const snapshots = new WorkspaceSnapshots(store.files);
  const cold = await timeIt(() => snapshots.before(workspace));
  report({ figure: `first snapshot of ${FILES} files (reads and stores all)`, value: cold, unit: 'ms' });
  report({ figure: 'stored by it', value: store.files.usage().bytes / 1024 / 1024, unit: 'MB' });
  const host = defaultSandboxHost();
  const sandbox = async () => {
    const outcome = await runSandboxed(
      { command: 'true', workspace, timeoutMs: 10_000, network: false, hidden: [] },
      host,
    );
    if (outcome.isError) throw new Error(outcome.text);
  };
  await sandbox();
  const [snapMs, sandboxMs] = [[], []] as number[][];
  for (let i = 0; i < CALLS; i += 1) {
    snapMs.push(await timeIt(async () => snapshots.after(await snapshots.before(workspace))));
    sandboxMs.push(await timeIt(sandbox));
  }
  const baseline = { name: 'the sandbox start (bash `true`)', value: median(sandboxMs) };
  report({
    figure: `snapshot before + after, unchanged, median of ${CALLS}`,
    value: median(snapMs),
    unit: 'ms',
    baseline,
    target: '≤ 100 ms',
  });
  report({
    figure: 'the same, p95',
    value: percentile(snapMs, 95),
    unit: 'ms',
    baseline: { ...baseline, value: percentile(sandboxMs, 95) },
  });
  // The journal saves the walk only while nothing changed: a file edited between two commands (by
  // the person, their editor, a build) costs the whole walk once, which this figure shows.
  const touchedMs: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    writeFileSync(join(workspace, 'd0', 'e0', 'f0.txt'), `edited ${i}\n`);
    touchedMs.push(await timeIt(async () => snapshots.after(await snapshots.before(workspace))));
  }
  report({
    figure: `snapshot before + after, one file edited before each call, median of ${CALLS}`,
    value: median(touchedMs),
    unit: 'ms',
    baseline,
  });
  snapshots.close();
  store.close();
}

/** Bytes on disk for `count` tool results, each with a fresh 1 KB file's change or without. */
function historyBytes(count: number, withChanges: boolean): number {
  const path = join(root, `store-${withChanges}.db`);
  const store = openHistoryStore(path);
  const base = statSync(path).size;
  for (let i = 0; i < count; i += 1) {
    const before = Buffer.from(`${i} before `.padEnd(1024, 'x'));
    const after = Buffer.from(`${i} after `.padEnd(1024, 'y'));
    const message = {
      role: 'toolResult',
      toolCallId: `c${i}`,
      toolName: 'write',
      content: [{ type: 'text', text: 'Wrote 1024 bytes to a.txt.' }],
      isError: false,
      timestamp: Date.now(),
    } as ChatMessage;
    const change = describeChange('a.txt', { bytes: before, mode: 0o644 }, { bytes: after, mode: 0o644 });
    const contents = [before, after].map((bytes) => ({ hash: hashBytes(bytes), bytes }));
    const fileChanges = {
      workspace,
      changes: [change],
      contents,
      notRecorded: [],
      toolCallId: `c${i}`,
      toolName: 'write',
    };
    store.appendTurn({ sessionId: 's', message, ...(withChanges ? { fileChanges } : {}) });
  }
  store.close();
  return statSync(path).size - base;
}

makeWorkspace();
await snapshotCost();
const N = 1000;
const withChanges = historyBytes(N, true);
const without = historyBytes(N, false);
report({
  figure: 'history bytes per change of a 1 KB file (both versions new)',
  value: (withChanges - without) / N,
  unit: 'B',
  note: `${N} tool results with a change vs ${N} without: ${(withChanges / 1024).toFixed(0)} KB vs ${(without / 1024).toFixed(0)} KB`,
});
rmSync(root, { recursive: true, force: true });
