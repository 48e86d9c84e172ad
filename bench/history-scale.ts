// Benchmark: the history at scale (1M turns; 20k with --quick), built once through the store's
// API into the cache folder. Each figure is measured against bare SQL on the same file in the same
// run: the newest page of a 10k-turn session, its full read, the sessions list's first page, the
// errored-turn list, and the file size per turn against pi's session JSONL of the same turns.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { TURN_PAGE_SIZE } from '../src/shared/history';
import { openHistoryStore } from '../src/main/node/history/sqlite-history-store';
import { cachedHistory, LONG_SESSION, piJsonl } from './history-data';
import { mediansOf, QUICK, report, tempDir } from './lib';

const TURNS = QUICK ? 20_000 : 1_000_000;
const RUNS = QUICK ? 5 : 15;
/** The JSONL comparison needs only a sample: its bytes per turn do not depend on the file's length. */
const JSONL_SAMPLE = 20_000;
const LIST_PAGE = 50;

export async function historyScaleBench(): Promise<void> {
  const path = cachedHistory(TURNS, (line) => console.log(line));
  const store = openHistoryStore(path);
  const bare = new Database(path, { readonly: true });
  try {
    const page = bare.prepare('SELECT * FROM turns WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?');
    const all = bare.prepare('SELECT * FROM turns WHERE session_id = ? ORDER BY seq');
    const parse = (rows: { message_json: string }[]) => rows.map((row) => JSON.parse(row.message_json) as unknown);

    const [pageMs, barePageMs] = await mediansOf(RUNS, [
      () => store.getSession(LONG_SESSION, TURN_PAGE_SIZE),
      () => parse(page.all(LONG_SESSION, Number.MAX_SAFE_INTEGER, TURN_PAGE_SIZE) as { message_json: string }[]),
    ]);
    report({
      figure: `open a 10k-turn session: newest ${TURN_PAGE_SIZE} turns (history.get limit ${TURN_PAGE_SIZE}), ${TURNS} turns in the file`,
      value: pageMs,
      unit: 'ms',
      baseline: { name: 'bare SQL of the same page', value: barePageMs },
      target: '≤ 10 ms',
    });

    const chains = bare.prepare('SELECT * FROM retry_chains WHERE session_id = ? ORDER BY started_at, n');
    const decisions = bare.prepare('SELECT * FROM retry_decisions WHERE session_id = ? ORDER BY n');
    const bareFull = () => [
      parse(all.all(LONG_SESSION) as { message_json: string }[]),
      chains.all(LONG_SESSION),
      (decisions.all(LONG_SESSION) as { context_json: string }[]).map((row) => JSON.parse(row.context_json) as unknown),
    ];
    // The store reads turns as value arrays (history-rows.ts, TURN_COLUMNS), which better-sqlite3
    // builds in about half the time of row objects: the same trick on the bare side is the stricter baseline.
    const allRaw = bare.prepare('SELECT message_json FROM turns WHERE session_id = ? ORDER BY seq').raw();
    const chainsRaw = bare.prepare('SELECT * FROM retry_chains WHERE session_id = ? ORDER BY started_at, n').raw();
    const decisionsRaw = bare.prepare('SELECT context_json FROM retry_decisions WHERE session_id = ? ORDER BY n').raw();
    const bareRawFull = () => [
      (allRaw.all(LONG_SESSION) as [string][]).map(([json]) => JSON.parse(json) as unknown),
      chainsRaw.all(LONG_SESSION),
      (decisionsRaw.all(LONG_SESSION) as [string][]).map(([json]) => JSON.parse(json) as unknown),
    ];
    const [fullMs, bareFullMs, bareRawFullMs] = await mediansOf(RUNS, [
      () => store.getSession(LONG_SESSION),
      bareFull,
      bareRawFull,
    ]);
    report({
      figure: 'full read of the 10k-turn session (turns, chains, decisions)',
      value: fullMs,
      unit: 'ms',
      baseline: { name: 'bare SQL: its turn, chain and decision rows + JSON.parse', value: bareFullMs },
      target: '≤ 1.2×',
    });
    report({
      figure: 'full read of the 10k-turn session, stricter baseline',
      value: fullMs,
      unit: 'ms',
      baseline: { name: 'bare SQL as value arrays, only the JSON columns + JSON.parse', value: bareRawFullMs },
      note: 'the floor any reader of these rows pays',
    });

    const list = bare.prepare('SELECT * FROM sessions ORDER BY updated_at DESC, id DESC LIMIT ?');
    const [listMs, bareListMs] = await mediansOf(RUNS * 4, [
      () => store.listSessions({ limit: LIST_PAGE }),
      () => list.all(LIST_PAGE),
    ]);
    report({
      figure: `sessions list, first page of ${LIST_PAGE} with turn counts`,
      value: listMs,
      unit: 'ms',
      baseline: { name: 'bare SQL of the session rows', value: bareListMs },
      target: '≤ 1 ms',
    });

    // The list shows one entry per errored exchange: a chain's latest failed attempt, every attempt
    // of the chain and its decisions. The baseline reads the same rows and parses the same JSON.
    const heads = bare.prepare(
      `SELECT t.*, s.title, c.outcome FROM turns t JOIN sessions s ON s.id = t.session_id
         LEFT JOIN retry_chains c ON c.id = t.chain_id
       WHERE t.stop_reason = 'error' AND (t.chain_id IS NULL OR t.n = (SELECT max(t2.n) FROM turns t2
         WHERE t2.chain_id = t.chain_id AND t2.stop_reason = 'error'))
       ORDER BY t.created_at DESC, t.n DESC LIMIT ?`,
    );
    const ids = 'SELECT value FROM json_each(?)';
    const attempts = bare.prepare(`SELECT * FROM turns WHERE chain_id IN (${ids}) AND stop_reason = 'error'`);
    const chainDecisions = bare.prepare(`SELECT * FROM retry_decisions WHERE chain_id IN (${ids})`);
    const bareErrored = () => {
      const rows = heads.all(LIST_PAGE) as { chain_id: string | null; message_json: string }[];
      const chainIds = JSON.stringify(rows.flatMap((row) => (row.chain_id === null ? [] : [row.chain_id])));
      return [
        parse(rows.filter((row) => row.chain_id === null)),
        parse(attempts.all(chainIds) as { message_json: string }[]),
        (chainDecisions.all(chainIds) as { context_json: string }[]).map(
          (row) => JSON.parse(row.context_json) as unknown,
        ),
      ];
    };
    const [erroredMs, bareErroredMs] = await mediansOf(RUNS, [() => store.erroredTurns(LIST_PAGE), bareErrored]);
    report({
      figure: `errored-turn list, ${LIST_PAGE} newest exchanges with their chains, attempts and decisions`,
      value: erroredMs,
      unit: 'ms',
      baseline: { name: 'bare SQL of the same turn, attempt and decision rows + JSON.parse', value: bareErroredMs },
      target: '≤ 2×',
    });
  } finally {
    bare.close();
    store.close();
  }
  const jsonlPerTurn = piJsonl(join(tempDir('jsonl'), 'session.jsonl'), JSONL_SAMPLE) / JSONL_SAMPLE;
  report({
    figure: 'history file size per turn (with search index, chains and decisions)',
    value: statSync(path).size / TURNS,
    unit: 'bytes',
    baseline: { name: "pi's session JSONL of the same turns", value: jsonlPerTurn },
    target: '≤ 1.2×',
  });
}
