// The history's search: full-text hits on what was said (turns_fts, which reads each turn's text
// from its stored message), then errored turns whose error text holds every word. HistoryQueries
// owns one instance; toFtsQuery and errorSnippet are pure and tested on their own.
import type Database from 'better-sqlite3';
import type { SearchHit } from '../../../shared/history';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/history';

/** Words of a search beyond this many are ignored (a pasted page should not build a huge query). */
const MAX_SEARCH_WORDS = 32;
/** Errored turns looked at for a search of error text; their number is small next to all turns. */
const ERROR_SEARCH_SCAN = 500;
/** Characters of error text kept on each side of the first match in a snippet. */
const SNIPPET_CONTEXT_CHARS = 60;

/** A turn's error text, read from its stored message (a message that is not JSON has none). */
const ERROR_TEXT = `(CASE WHEN json_valid(t.message_json) THEN json_extract(t.message_json, '$.errorMessage') END)`;

interface HitRow {
  turn_id: string;
  session_id: string;
  session_title: string;
  role: string;
  created_at: number;
}

interface SearchRow extends HitRow {
  snippet: string;
}

interface ErrorSearchRow extends HitRow {
  error_message: string;
}

function toHit(row: HitRow, snippet: string): SearchHit {
  return {
    sessionId: row.session_id,
    sessionTitle: row.session_title,
    turnId: row.turn_id,
    role: row.role as SearchHit['role'],
    snippet,
    createdAt: row.created_at,
  };
}

export class HistorySearch {
  private readonly searchStmt: Database.Statement<[string, number], SearchRow>;
  private readonly errorSearchStmt: Database.Statement<[string, number], ErrorSearchRow>;

  constructor(db: Database.Database) {
    this.searchStmt = db.prepare(
      `SELECT t.id AS turn_id, t.session_id, s.title AS session_title, t.role, t.created_at,
         snippet(turns_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', 16) AS snippet
       FROM turns_fts JOIN turns t ON t.n = turns_fts.rowid JOIN sessions s ON s.id = t.session_id
       WHERE turns_fts MATCH ? ORDER BY rank, t.created_at DESC LIMIT ?`,
    );
    // Error text is not in the full-text index (a failed turn has no text) and is stored once, in
    // the message: errored turns are few (the turns_errored index lists them), so a LIKE over their
    // messages' error text finds it (case-insensitive for ASCII, as LIKE is).
    this.errorSearchStmt = db.prepare(
      `SELECT t.id AS turn_id, t.session_id, s.title AS session_title, t.role, t.created_at, ${ERROR_TEXT} AS error_message
       FROM turns t JOIN sessions s ON s.id = t.session_id
       WHERE t.stop_reason = 'error' AND ${ERROR_TEXT} LIKE ? ESCAPE '\\'
       ORDER BY t.created_at DESC, t.n DESC LIMIT ?`,
    );
  }

  /** Up to `max` hits: full-text ones first, then errored turns whose error text has every word. */
  search(query: string, max: number): SearchHit[] {
    const words = searchWords(query);
    if (words.length === 0) return [];
    const hits = this.searchStmt.all(toFtsMatch(words), max).map((row) => toHit(row, row.snippet));
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
    for (const row of this.errorSearchStmt.all(`%${escapeLike(longest)}%`, ERROR_SEARCH_SCAN)) {
      if (hits.length >= max) break;
      const snippet = errorSnippet(row.error_message, words);
      if (snippet === null || hits.some((hit) => hit.turnId === row.turn_id)) continue;
      hits.push(toHit(row, snippet));
    }
    return hits;
  }
}

/** The words of a search: double quotes dropped, words without a letter or digit left out. */
function searchWords(input: string): string[] {
  return (
    input
      .replace(/"/g, ' ')
      .split(/\s+/u)
      // A word with no letter or digit tokenizes to nothing; FTS5 would match nothing at all.
      .filter((word) => /[\p{L}\p{N}]/u.test(word))
      .slice(0, MAX_SEARCH_WORDS)
  );
}

function toFtsMatch(words: string[]): string {
  return words.map((word, index) => (index === words.length - 1 ? `"${word}"*` : `"${word}"`)).join(' ');
}

/**
 * Turns what a person typed into an FTS5 query that cannot fail to parse: every word becomes a
 * quoted string (so `-`, `*`, `:`, `(`, `AND`, `NEAR` mean nothing), the words are ANDed, and the
 * last one also matches as a prefix, for search-as-you-type. Double quotes are dropped, not
 * escaped: `"exact phrase"` searches for the two words. Returns null when no word is left.
 */
export function toFtsQuery(input: string): string | null {
  const words = searchWords(input);
  return words.length === 0 ? null : toFtsMatch(words);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The error text around its first match, every word marked; null unless it holds every word. */
export function errorSnippet(text: string, words: string[]): string | null {
  const lower = text.toLowerCase();
  const positions = words.map((word) => lower.indexOf(word.toLowerCase()));
  if (positions.some((at) => at < 0)) return null;
  const start = Math.max(0, Math.min(...positions) - SNIPPET_CONTEXT_CHARS);
  const end = Math.min(
    text.length,
    Math.max(...positions.map((at, i) => at + words[i].length)) + SNIPPET_CONTEXT_CHARS,
  );
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  const marked = text.slice(start, end).replace(pattern, (m) => `${SNIPPET_OPEN}${m}${SNIPPET_CLOSE}`);
  return `${start > 0 ? '…' : ''}${marked}${end < text.length ? '…' : ''}`;
}
