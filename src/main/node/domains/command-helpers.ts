// The few rules the domains' command handlers share: a missing thing is 'not_found', a refusal of
// bad input is 'invalid_params', and a command that starts a turn checks first (so a refusal is an
// error reply) and lets the turn run on after its reply (a later failure arrives as a notice); and
// no command is answered by two domains.
import { errorNotice } from '../../../shared/notices';
import { type NoticeText } from '../../../shared/notice-params';
import { CommandError } from '../../../shared/wire';
import { errorText } from '../../../shared/text';

/** The value, or a 'not_found' reply naming what was not found. */
export function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new CommandError('not_found', `${what} not found`);
  return value;
}

/** A refusal of bad input, thrown or rejected, is an 'invalid_params' reply. */
export async function asInvalid<T>(apply: () => T | Promise<T>): Promise<T> {
  try {
    return await apply();
  } catch (error) {
    throw new CommandError('invalid_params', errorText(error));
  }
}

/** What starting a turn needs: whether one runs, and where a failure after the reply is told. */
export interface TurnStarter {
  readonly isBusy: boolean;
  report(notice: NoticeText): void;
}

/**
 * Start a turn from a command: refused while one runs; `start` may throw its own refusal before
 * the turn begins (a bad turn id, nothing to continue), which is then the command's error reply.
 */
/** A turn runs: a command that would start another is refused. */
export function refuseWhileBusy(starter: Pick<TurnStarter, 'isBusy'>): void {
  if (starter.isBusy) throw new CommandError('failed', 'A turn is already running; wait for it or press Stop.');
}

export function startTurn(starter: TurnStarter, start: () => Promise<void>): { accepted: true } {
  refuseWhileBusy(starter);
  start().catch((error: unknown) =>
    starter.report(errorNotice('turn_command_failed', 'The turn could not run', error)),
  );
  return { accepted: true };
}

/** Throws when a command is answered by two of the domains' handler sets (the composition root's check). */
export function assertOneHandlerEach(handlerSets: readonly object[]): void {
  const seen = new Set<string>();
  for (const name of handlerSets.flatMap((handlers) => Object.keys(handlers))) {
    if (seen.has(name)) throw new Error(`The command ${name} is answered by two domains.`);
    seen.add(name);
  }
}
