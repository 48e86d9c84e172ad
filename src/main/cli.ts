// The Node entry point (package.json "bin"): `--mode web` (the browser mode, default),
// `--mode rpc` (JSON lines, pi's protocol) and `--mode simulator`. No Electron here, so it runs
// under plain Node on any machine. Built to out/main/cli.js. Each mode is imported only once it is
// chosen, and `--help` imports nothing at all: start-up pays only for what it runs.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CommonFlags } from './modes/launch';
import { USAGE } from './modes/usage';
import { codedNotice } from '../shared/notices';
import { errorText } from '../shared/text';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (asksForHelp(argv)) {
    process.stdout.write(USAGE);
    return;
  }
  const { parseCommonFlags } = await import('./modes/launch');
  let flags: CommonFlags;
  try {
    flags = parseCommonFlags(argv);
  } catch (error) {
    process.stderr.write(`resolute: ${errorText(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (flags.mode === 'simulator') return runSimulator(flags);
  if (flags.mode === 'rpc') return (await import('./modes/rpc/rpc-mode')).runRpcMode(flags);
  return runWeb(flags);
}

/** `--help` / `-h` anywhere among the options (the full parse, with its checks, comes later). */
function asksForHelp(argv: string[]): boolean {
  const { tokens } = parseArgs({ args: argv, strict: false, allowPositionals: true, tokens: true });
  return tokens.some((token) => token.kind === 'option' && (token.name === 'help' || token.name === 'h'));
}

const LINK_REUSED =
  'a one-time launch link was presented again, not by the window Resolute opened: whoever did got nothing. ' +
  'Had they come first, the window would have been refused and their access withdrawn before it did anything.';
const LINK_REVOKED =
  'a one-time launch link was presented a second time, so the access it gave was withdrawn: the tab it ' +
  'opened now needs the URL above.';

async function runWeb(flags: CommonFlags): Promise<void> {
  const [{ launchApp }, { startBrowserServer }, { openForPerson }, { startExtensions }] = await Promise.all([
    import('./modes/launch'),
    import('./modes/browser/browser-server'),
    import('./modes/browser/open-app'),
    import('./modes/extensions/extension-runner'),
  ]);
  const app = await launchApp(flags, 'browser');
  const extensions = await startExtensions(app, flags.extensions, {
    onFailure: (failure) =>
      app.hub.publish({
        type: 'notice',
        level: 'error',
        ...codedNotice(
          'extension_disabled',
          { path: failure.extensionPath, detail: failure.error },
          `Extension disabled: ${failure.extensionPath}: ${failure.error}`,
        ),
      }),
  });
  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
  const server = await startBrowserServer({
    router: app.router,
    hub: app.hub,
    rendererDir,
    port: flags.port,
    onLaunchLinkReused: (revoked) => process.stderr.write(`resolute: ${revoked ? LINK_REVOKED : LINK_REUSED}\n`),
  });
  process.stdout.write(`Resolute (browser mode) is running at ${server.url}\n`);
  process.stdout.write(`Simulator: ${app.services.domains.app.info().simulatorUrl ?? 'off'}\n`);
  process.stdout.write(`Data: ${app.services.dataDir}\n`);
  for (const notice of app.services.domains.app.info().notices) process.stderr.write(`resolute: ${notice.message}\n`);
  let appWindow: Awaited<ReturnType<typeof openForPerson>> = null;
  const stop = onExit(async () => {
    const waiting = app.services.sessions.waitingChains();
    if (waiting > 0)
      process.stderr.write(
        `resolute: ${waiting} waiting ${waiting === 1 ? 'retry is' : 'retries are'} kept for the next start\n`,
      );
    await appWindow?.close();
    extensions.dispose();
    await server.close();
    await app.services.dispose();
  });
  if (flags.noOpen) return;
  appWindow = await openForPerson(server.launchLink, app.services.dataDir, (line) => process.stdout.write(`${line}\n`));
  // The browser mode has no other window: closing the app window is how the person quits.
  void appWindow?.closed.then(stop);
}

async function runSimulator(flags: CommonFlags): Promise<void> {
  const { SimulatorServer } = await import('./node/simulator/simulator-server');
  const simulator = new SimulatorServer({ port: flags.port, script: flags.script ?? '' });
  const url = await simulator.start();
  process.stdout.write(`Resolute simulator listening at ${url}\n`);
  onExit(() => simulator.stop());
}

/** Run `cleanup` once, then exit 0, on Ctrl+C, SIGTERM or a call of the returned function. */
function onExit(cleanup: () => Promise<void>): () => void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    cleanup().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return stop;
}

main().catch(async (error: unknown) => {
  process.stderr.write(`resolute: ${errorText(error)}\n`);
  // Loaded here, not at the top: `--help` must not pay for what only a failed start needs (zod,
  // through the notices; docs/performance.md, "Start-up").
  const [{ DataFolderLockedError }, { isHistoryDatabaseError }] = await Promise.all([
    import('./node/data-lock'),
    import('./node/history/history-errors'),
  ]);
  // Another instance has the data folder: nothing failed, this copy has nothing to do.
  if (error instanceof DataFolderLockedError) process.exit(0);
  // On the command line, agreeing to start a new history is a flag (the desktop app asks in a dialog).
  if (isHistoryDatabaseError(error) && error.kind === 'damaged') {
    process.stderr.write(
      'To keep the damaged file aside and start a new history, run again with --reset-damaged-history.\n',
    );
  }
  process.exit(1);
});
