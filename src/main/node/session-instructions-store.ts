// Each conversation's own instructions, by session id, kept in the history so that they outlive a
// restart (docs/thinking-and-context.md, "A conversation's instructions"). AppServices makes one
// over its history store; SessionDomain reads and changes them (session.instructions,
// session.setInstructions) and the agent reads them before each request.
import type { InstructionsOverride } from './history/session-instructions';

/** What the store needs of the history (SqliteHistoryStore has it). */
export interface InstructionsHistory {
  sessionInstructions(sessionId: string): InstructionsOverride | null;
  setSessionInstructions(sessionId: string, override: InstructionsOverride | null): void;
}

/** The calls of the Map it replaced (get/set/delete), written through to the history. */
export class SessionInstructionsStore {
  constructor(private readonly history: InstructionsHistory) {}

  get(sessionId: string): InstructionsOverride | undefined {
    return this.history.sessionInstructions(sessionId) ?? undefined;
  }

  set(sessionId: string, override: InstructionsOverride): this {
    this.history.setSessionInstructions(sessionId, override);
    return this;
  }

  delete(sessionId: string): boolean {
    const had = this.history.sessionInstructions(sessionId) !== null;
    this.history.setSessionInstructions(sessionId, null);
    return had;
  }
}
