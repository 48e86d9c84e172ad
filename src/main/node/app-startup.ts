// What AppServices opens before it is built, in order: pi-ai when the settings name a real
// provider (its catalogue checks them), the settings, the run's workspace, the history (pending
// chains a crash left closed as interrupted) and the built-in simulator; the start-up notices those
// steps leave (tool calls a crash cut given their results); and the history's integrity check, later, in the background. AppServices.create
// calls them once the data folder's lock is held.
import { join } from 'node:path';
import type { StartupNotice } from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import { codedNotice } from '../../shared/notices';
import { type NoticeText } from '../../shared/notice-params';
import { loadPiRuntime } from '../core/llm/pi-runtime';
import { providerOverlay, settingsNeedCatalogue, type AppServicesOptions } from './app-options';
import type { DataLock } from './data-lock';
import { describeDamageFoundInUse } from './history/history-errors';
import { interruptedNotice, type InterruptedChain } from './history/interrupted-chains';
import { openHistoryStore, type SqliteHistoryStore } from './history/sqlite-history-store';
import type { RecoveredRun } from './history/tool-runs';
import { checkFallbackModels, needsCatalogue } from './providers';
import { FileSettingsStore } from './settings-file';
import { fileKeyCipher, type SecretCipher } from './credential-store';
import { McpSecretVault } from './mcp/mcp-secret-vault';
import { parseFaultScript } from './simulator/fault-script';
import { SimulatorServer } from './simulator/simulator-server';
import { runWorkspace } from './tools/workspace-fs';

/**
 * How long after start-up the background integrity check begins: the first answers go out first,
 * even on a loaded machine, before a worker starts reading the whole file.
 */
const INTEGRITY_CHECK_DELAY_MS = 2_000;

export interface OpenedParts {
  dataDir: string;
  /** What seals API keys and MCP secrets: the desktop app's keychain, else a key file in the data folder. */
  cipher: SecretCipher;
  settings: FileSettingsStore;
  history: SqliteHistoryStore;
  simulator: SimulatorServer | null;
  simulatorUrl: string | null;
  lock: DataLock;
  workspace: string;
  /** The chains this start closed as interrupted. */
  interrupted: InterruptedChain[];
  /** The tool calls a quit or a crash cut off, each given its "interrupted" result (tool-runs.ts), oldest first. */
  cutToolRuns: RecoveredRun[];
}

export async function openParts(options: AppServicesOptions, dataDir: string, lock: DataLock): Promise<OpenedParts> {
  // A provider from the flags picks its first catalogue model: that needs pi-ai now.
  if (options.provider && needsCatalogue(options.provider) && !options.model) await loadPiRuntime();
  const overlay = { ...providerOverlay(options), ...(options.overlay ?? {}) };
  // A real provider's model (the first choice's, a fallback's) is checked against and resolved
  // from pi-ai's catalogue; otherwise pi-ai waits for the first run.
  const settingsPath = join(dataDir, 'settings.json');
  if (settingsNeedCatalogue(settingsPath, overlay)) await loadPiRuntime();
  const cipher = options.cipher ?? fileKeyCipher(dataDir);
  // MCP servers' env values and headers are sealed like the API keys (docs/mcp.md, "Secrets").
  const secrets = new McpSecretVault(join(dataDir, 'mcp-secrets.json'), cipher);
  const check = (value: Settings): string | null => {
    const script = parseFaultScript(value.simulator.script);
    return script.ok ? checkFallbackModels(value.providers.fallback) : `simulator.script: ${script.error}`;
  };
  const settings = new FileSettingsStore(settingsPath, overlay, check, secrets);
  const workspace = runWorkspace(options.workspace, dataDir);
  const history = openHistoryStore(join(dataDir, 'history.db'), { startFresh: options.startFreshHistory });
  // We hold the lock: a chain still pending was left by a process that is gone (a crash, a kill).
  // It is closed as interrupted, and can be continued (docs/retry-policy.md, "Resume after a restart").
  const interrupted = history.closeInterruptedChains(Date.now());
  // Likewise a tool call still marked running: it ran when the process went, and is not run again.
  const cutToolRuns = history.recoverToolRuns(Date.now());
  let simulator: SimulatorServer | null = null;
  let simulatorUrl: string | null = null;
  try {
    // The simulator always runs: it is the default provider and the settings pane can switch to it.
    simulator = new SimulatorServer({ script: safeScript(settings.get().simulator.script) });
    simulatorUrl = await simulator.start();
  } catch (error) {
    history.close();
    throw error;
  }
  return { dataDir, cipher, settings, history, simulator, simulatorUrl, lock, workspace, interrupted, cutToolRuns };
}

/** What the opening found that the person should hear about (a stale lock, a bad settings file…). */
export function startupProblems(options: AppServicesOptions, parts: OpenedParts): Omit<StartupNotice, 'id'>[] {
  const notes: Omit<StartupNotice, 'id'>[] = [];
  const stale = parts.lock.tookOverFrom;
  if (stale) {
    const message = `Resolute did not shut down cleanly last time (process ${stale.pid}); its lock was taken over.`;
    notes.push({ level: 'info', ...codedNotice('lock_taken_over', { pid: stale.pid }, message) });
  }
  const backup = parts.history.backupBeforeMigration;
  if (backup) {
    const message = `This version updated the history to schema ${backup.to}; a copy as it was (schema ${backup.from}) is kept at ${backup.path} for an older version.`;
    notes.push({ level: 'info', ...codedNotice('history_backup', { ...backup }, message) });
  }
  notes.push(...parts.settings.loadProblems);
  if (options.cipher?.note) notes.push({ level: 'warning', ...options.cipher.note });
  if (parts.interrupted.length > 0) notes.push({ level: 'info', ...interruptedNotice(parts.interrupted.length) });
  return notes;
}

/**
 * The integrity check the open left to the background (history-integrity.ts) starts once start-up
 * is over, in a worker thread. Damage found is printed on stderr and handed to `report` (a notice
 * kept for clients that connect later and sent to those connected now). Returns the cancel.
 */
export function checkHistoryLater(history: SqliteHistoryStore, report: (notice: NoticeText) => void): () => void {
  const timer = setTimeout(() => {
    void history.checkIntegrity().then((damage) => {
      if (!damage) return;
      const notice = describeDamageFoundInUse(damage);
      process.stderr.write(`resolute: ${notice.message}\n`);
      report(notice);
    });
  }, INTEGRITY_CHECK_DELAY_MS);
  timer.unref();
  return () => clearTimeout(timer);
}

function safeScript(script: string): string {
  // A stored script that no longer parses must not stop the app from starting.
  return parseFaultScript(script).ok ? script : '';
}
