// Retry chains a crash or a kill cut off: a chain is `pending` only while its process runs, so at
// start every pending chain left in the history belongs to a process that is gone. They are closed
// as `interrupted` (docs/retry-policy.md, "Chain outcomes") and returned, for the start-up notice —
// and for resuming them after a restart, which can build on this list.
import type Database from 'better-sqlite3';

export interface InterruptedChain {
  id: string;
  sessionId: string;
  /** Retries started before the process stopped. */
  attempts: number;
}

/** Close every pending chain as interrupted at `now` (one transaction); returns the chains closed. */
export function closeInterruptedChains(db: Database.Database, now: number): InterruptedChain[] {
  const close = db.transaction(() => {
    const chains = db
      .prepare<[], InterruptedChain>(
        "SELECT id, session_id AS sessionId, attempts FROM retry_chains WHERE outcome = 'pending' ORDER BY n",
      )
      .all();
    db.prepare("UPDATE retry_chains SET outcome = 'interrupted', ended_at = ? WHERE outcome = 'pending'").run(now);
    return chains;
  });
  return close.immediate();
}
