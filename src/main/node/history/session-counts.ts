// The counts each session row keeps (sessions.turn_count, sessions.errored_turn_count), in SQL:
// the one-off count a migration runs over existing rows, and the triggers that keep both in step
// inside every writing transaction, so the sessions list reads them instead of counting turns.
// migration-text-once.ts installs them; the definitions are docs/architecture.md's "Where data lives".
//
// turn_count: the exchanges, i.e. the person's messages (replaced branches included: they were sent).
// errored_turn_count: the exchanges that ended in an error, once per retry chain: an errored turn
// outside any chain counts once, and a chain with failed attempts counts once unless it recovered,
// is still retrying or went to compaction (an interrupted, exhausted or cancelled chain counts; a
// chain id with no chain row counts, as the chain's end was never recorded).

/** Outcomes after which a chain's failed attempts are not an errored exchange. */
const QUIET_OUTCOMES = "('recovered', 'pending', 'compacted')";

/** 1 when the chain `chainId` (an SQL expression) counts as errored by its row, else 0. */
const chainCounts = (chainId: string) =>
  `(NOT EXISTS (SELECT 1 FROM retry_chains c WHERE c.id = ${chainId} AND c.outcome IN ${QUIET_OUTCOMES}))`;

/** Failed attempts of the chain `chainId`, leaving out the turn numbered `except` (turns_by_chain serves it). */
const failedAttempts = (chainId: string, except = 'NULL') =>
  `(SELECT 1 FROM turns t WHERE t.chain_id = ${chainId} AND t.stop_reason = 'error' AND t.n IS NOT ${except})`;

/**
 * What one errored turn adds to its session's errored count, seen after it joined (`row` is new)
 * or left (`row` is old) its chain: 1 outside a chain; in a chain, 1 for the chain's first failed
 * attempt to join (or its last to leave) when the chain counts.
 */
const erroredShare = (row: string, joined: boolean) =>
  `(CASE WHEN ${row}.stop_reason IS NOT 'error' THEN 0 WHEN ${row}.chain_id IS NULL THEN 1
    WHEN NOT EXISTS ${failedAttempts(`${row}.chain_id`, joined ? `${row}.n` : 'NULL')}
      THEN ${chainCounts(`${row}.chain_id`)} ELSE 0 END)`;

const isUser = (row: string) => `(CASE WHEN ${row}.role = 'user' THEN 1 ELSE 0 END)`;
const quiet = (outcome: string) => `(${outcome} IN ${QUIET_OUTCOMES})`;

/** Both counts of every session, counted from its turns and chains (what the triggers keep). */
export const RECOUNT_SESSIONS = `
UPDATE sessions SET
  turn_count = (SELECT count(*) FROM turns t WHERE t.session_id = sessions.id AND t.role = 'user'),
  errored_turn_count =
    (SELECT count(*) FROM turns t WHERE t.session_id = sessions.id AND t.stop_reason = 'error' AND t.chain_id IS NULL)
    + (SELECT count(DISTINCT t.chain_id) FROM turns t
        WHERE t.session_id = sessions.id AND t.stop_reason = 'error' AND t.chain_id IS NOT NULL
          AND ${chainCounts('t.chain_id')});
`;

/**
 * The triggers. A turn's role, stop reason and session never change; its chain does (a failed
 * turn is linked to the chain its failure opened), and so does a chain's outcome (closed, reopened,
 * interrupted). Each trigger adds the difference its row makes, with a constant number of index
 * lookups: no count over a session's turns.
 */
export const SESSION_COUNT_TRIGGERS = `
CREATE TRIGGER turns_count_insert AFTER INSERT ON turns BEGIN
  UPDATE sessions SET turn_count = turn_count + ${isUser('new')},
    errored_turn_count = errored_turn_count + ${erroredShare('new', true)}
    WHERE id = new.session_id;
END;
CREATE TRIGGER turns_count_delete AFTER DELETE ON turns BEGIN
  UPDATE sessions SET turn_count = turn_count - ${isUser('old')},
    errored_turn_count = errored_turn_count - ${erroredShare('old', false)}
    WHERE id = old.session_id;
END;
CREATE TRIGGER turns_count_link AFTER UPDATE OF chain_id ON turns
  WHEN new.stop_reason = 'error' AND old.chain_id IS NOT new.chain_id BEGIN
  UPDATE sessions SET errored_turn_count = errored_turn_count - ${erroredShare('old', false)}
      + ${erroredShare('new', true)}
    WHERE id = new.session_id;
END;
CREATE TRIGGER chains_count_outcome AFTER UPDATE OF outcome ON retry_chains
  WHEN ${quiet('old.outcome')} IS NOT ${quiet('new.outcome')} AND EXISTS ${failedAttempts('new.id')} BEGIN
  UPDATE sessions SET errored_turn_count = errored_turn_count + (CASE WHEN ${quiet('new.outcome')} THEN -1 ELSE 1 END)
    WHERE id = (SELECT t.session_id FROM turns t WHERE t.chain_id = new.id AND t.stop_reason = 'error' LIMIT 1);
END;
CREATE TRIGGER chains_count_insert AFTER INSERT ON retry_chains
  WHEN ${quiet('new.outcome')} AND EXISTS ${failedAttempts('new.id')} BEGIN
  UPDATE sessions SET errored_turn_count = errored_turn_count - 1
    WHERE id = (SELECT t.session_id FROM turns t WHERE t.chain_id = new.id AND t.stop_reason = 'error' LIMIT 1);
END;
CREATE TRIGGER chains_count_delete AFTER DELETE ON retry_chains
  WHEN ${quiet('old.outcome')} AND EXISTS ${failedAttempts('old.id')} BEGIN
  UPDATE sessions SET errored_turn_count = errored_turn_count + 1
    WHERE id = (SELECT t.session_id FROM turns t WHERE t.chain_id = old.id AND t.stop_reason = 'error' LIMIT 1);
END;
`;
