// The list of command names alone, without their zod schemas, so the sandboxed preload can check
// a method name without bundling zod. contract.ts ties this list to its schemas at compile time.

export const COMMAND_NAMES = [
  'app.info',
  'session.getState',
  'session.prompt',
  'session.abort',
  'session.abortRetry',
  'session.retryNow',
  'session.sendAnyway',
  'session.resumeInterrupted',
  'session.discardInterrupted',
  'session.new',
  'session.resume',
  'session.compact',
  'session.continue',
  'session.approveTool',
  'session.setWorkspace',
  'session.pickWorkspace',
  'session.edit',
  'session.regenerate',
  'session.instructions',
  'session.setInstructions',
  'settings.get',
  'settings.update',
  'providers.list',
  'providers.addKey',
  'providers.removeKey',
  'providers.test',
  'simulator.setScript',
  'history.list',
  'history.get',
  'history.turns',
  'history.search',
  'history.erroredTurns',
  'history.delete',
  'history.export',
  'history.failureCost',
  'history.rename',
  'history.saveExport',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && (COMMAND_NAMES as readonly string[]).includes(value);
}

/** The error for a name that is not a command: the preload and the main process word it alike. */
export function unknownCommandError(method: string): { code: 'unknown_command'; message: string } {
  return { code: 'unknown_command', message: `unknown command "${method}"` };
}
