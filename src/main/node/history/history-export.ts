// Renders a stored session (SessionDetail) as a download: pretty JSON of the record itself, or a
// Markdown transcript with, for every errored turn, its error, category and retry timeline; its
// images embedded (a download is one file) or, saved to disk, as files of a folder beside it; and
// the files the agent changed, with what was not recorded and each undo (docs/file-history.md).
// Pure functions; SqliteHistoryStore.exportSession reads the detail and calls exportSessionDetail.
import type { RetryChainRecord, RetryDecisionRecord, SessionDetail, TurnRecord } from '../../../shared/history';
import { attachmentBlocks } from '../../../shared/messages';
import type { SessionFileChanges } from '../../../shared/file-history';

export type ExportFormat = 'json' | 'markdown';

/** An image the Markdown links to, written as `<folder>/<name>` beside the .md (export-files.ts). */
export interface ExportAsset {
  name: string;
  mimeType: string;
  /** Base64. */
  data: string;
}

export interface SessionExport {
  filename: string;
  mimeType: string;
  content: string;
  /** With `images: "files"`: the folder beside the file that holds `files`, named after the export. */
  folder?: string;
  files?: ExportAsset[];
}

export interface ExportOptions {
  /** Markdown's images: embedded as data: URIs (default; one file), or as files of a folder beside it. */
  images?: 'inline' | 'files';
}

/** The images of a Markdown export being written as files: each gets a safe, numbered name. */
class AssetFolder {
  readonly files: ExportAsset[] = [];
  constructor(readonly folder: string) {}

  /** The relative link to the image, its file added. */
  add(name: string, mimeType: string, data: string): string {
    const safe =
      name
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(-80) || 'image';
    const file = `${this.files.length + 1}-${safe}`;
    this.files.push({ name: file, mimeType, data });
    return `${this.folder}/${file}`;
  }
}

const ROLE_LABELS: Record<TurnRecord['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  toolResult: 'Tool result',
};

export function exportSessionDetail(
  detail: SessionDetail,
  format: ExportFormat,
  options: ExportOptions = {},
  fileChanges: SessionFileChanges | null = null,
): SessionExport {
  const base = `resolute-${slug(detail.session.title) || detail.session.id.slice(0, 8)}-${isoDate(detail.session.createdAt)}`;
  if (format === 'json') {
    const record = fileChanges ? { ...detail, fileChanges } : detail;
    return { filename: `${base}.json`, mimeType: 'application/json', content: `${JSON.stringify(record, null, 2)}\n` };
  }
  const assets = options.images === 'files' ? new AssetFolder(base) : null;
  const content = renderMarkdown(detail, assets) + renderFileChanges(fileChanges);
  const files = assets?.files.length ? { folder: base, files: assets.files } : {};
  return { filename: `${base}.md`, mimeType: 'text/markdown', content, ...files };
}

function renderMarkdown(detail: SessionDetail, assets: AssetFolder | null): string {
  const { session, turns, chains, decisions } = detail;
  const chainsById = new Map(chains.map((chain) => [chain.id, chain]));
  const failedByChain = countFailedTurns(turns);
  const lines: string[] = [
    `# ${session.title.trim() || 'Untitled session'}`,
    '',
    `- Date: ${isoTime(session.createdAt)} (last activity ${isoTime(session.updatedAt)})`,
    `- Model: ${modelName(session.provider, session.model)}`,
    `- Turns: ${session.turnCount} (${erroredSummary(session.erroredTurnCount, failedAttempts(turns))})`,
    `- Session id: \`${session.id}\``,
  ];
  for (const turn of turns) {
    const about = decisions.filter((decision) => decision.context.turnId === turn.id);
    const chain = turn.chainId === null ? undefined : chainsById.get(turn.chainId);
    lines.push('', ...renderTurn(turn, chain && { chain, failed: failedByChain.get(chain.id) ?? 0 }, about, assets));
  }
  const turnIds = new Set(turns.map((turn) => turn.id));
  const unattached = decisions.filter(
    (decision) => decision.context.turnId === null || !turnIds.has(decision.context.turnId),
  );
  if (unattached.length > 0) {
    // Decisions not tied to a stored turn (e.g. the turn was never persisted) are still shown.
    lines.push('', '## Other retry decisions', '', ...unattached.map(renderDecision));
  }
  return `${lines.join('\n')}\n`;
}

/** "## File changes": each tool call's files, what was not recorded, and each undo or redo. */
function renderFileChanges(files: SessionFileChanges | null): string {
  if (!files || (files.changes.length === 0 && files.notRecorded.length === 0)) return '';
  const lines = ['', '## File changes', ''];
  for (const c of files.changes) {
    const lineCounts = c.binary ? 'binary' : `+${c.added} −${c.removed}`;
    const undone = c.state === 'undone' ? ' — undone' : '';
    lines.push(`- \`${c.path}\` ${c.kind} (${lineCounts}) by ${c.toolName}, ${isoTime(c.createdAt)}${undone}`);
  }
  for (const note of files.notRecorded) lines.push(`- Not recorded (${note.toolCallId}): ${note.reasons.join('; ')}`);
  for (const undo of files.undos) {
    const done = undo.steps.filter((step) => step.state === 'done').length;
    lines.push(
      `- ${undo.action === 'undo' ? 'Undo' : 'Redo'} at ${isoTime(undo.createdAt)}: ${done} of ${undo.steps.length} files (${undo.state})`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The header's count says both things the transcript below shows: exchanges that ended in an
 * error (the sidebar's badge), and failed attempts in all — a recovered chain's attempts are
 * listed below with their errors, and "0 errored" above them read as a contradiction.
 */
function erroredSummary(erroredExchanges: number, attempts: number): string {
  const ended = `${erroredExchanges} ended in an error`;
  if (attempts === 0) return ended;
  return `${ended}; ${attempts} failed ${attempts === 1 ? 'attempt' : 'attempts'} in all`;
}

function failedAttempts(turns: TurnRecord[]): number {
  return turns.filter((turn) => turn.stopReason === 'error').length;
}

/** A chain and how many of its turns failed: the count the chat's card uses. */
interface CountedChain {
  chain: RetryChainRecord;
  failed: number;
}

function countFailedTurns(turns: TurnRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const turn of turns)
    if (turn.chainId !== null && turn.stopReason === 'error')
      counts.set(turn.chainId, (counts.get(turn.chainId) ?? 0) + 1);
  return counts;
}

function renderTurn(
  turn: TurnRecord,
  chain: CountedChain | undefined,
  decisions: RetryDecisionRecord[],
  assets: AssetFolder | null,
): string[] {
  const label =
    turn.message.role === 'toolResult'
      ? `${ROLE_LABELS.toolResult} (${turn.message.toolName})`
      : ROLE_LABELS[turn.role];
  const model = turn.model === null ? '' : ` · ${modelName(turn.provider ?? '', turn.model)}`;
  const lines = [`## ${turn.seq}. ${label}${model}`, '', `_${isoTime(turn.createdAt)}${stopNote(turn)}_`];
  for (const thinking of thinkingLines(turn)) lines.push('', ...thinking);
  if (turn.text.trim() !== '') lines.push('', turn.text);
  lines.push(...renderAttachments(turn, assets));
  if (turn.stopReason === 'error' || turn.errorMessage !== null) {
    lines.push(
      '',
      `> **Error** (${turn.errorCategory ?? 'uncategorised'}): ${oneLine(turn.errorMessage ?? 'no message')}`,
    );
  }
  if (chain !== undefined || decisions.length > 0) lines.push('', ...renderTimeline(chain, decisions));
  return lines;
}

/** Each thinking block of a reply as a quote above its words (docs/thinking-and-context.md). */
function thinkingLines(turn: TurnRecord): string[][] {
  if (turn.message.role !== 'assistant') return [];
  return turn.message.content.flatMap((block) => {
    if (block.type !== 'thinking' || (!block.thinking.trim() && !block.redacted)) return [];
    const took = block.durationMs === undefined ? '' : ` · ${Math.max(1, Math.round(block.durationMs / 1000))} s`;
    if (block.redacted) return [[`> **Thinking**${took} (redacted by the provider)`]];
    return [
      [
        `> **Thinking**${took}`,
        '>',
        ...block.thinking
          .trim()
          .split('\n')
          .map((line) => `> ${line}`.trimEnd()),
      ],
    ];
  });
}

/**
 * A turn's attachments: images embedded as data URIs (a download stays one file that any Markdown
 * viewer shows) or linked into the export's folder, an attached file's text as the block the model got.
 */
function renderAttachments(turn: TurnRecord, assets: AssetFolder | null): string[] {
  const lines: string[] = [];
  for (const block of attachmentBlocks(turn.message)) {
    const name = block.file?.name ?? 'image';
    const link = (data: string, mimeType: string): string =>
      assets ? assets.add(name, mimeType, data) : `data:${mimeType};base64,${data}`;
    if (block.type === 'image')
      lines.push('', `![${name.replace(/[[\]\\]/g, '')}](${link(block.data, block.mimeType)})`);
    else lines.push('', `<details><summary>${escapeHtml(name)}</summary>`, '', block.text, '', '</details>');
  }
  return lines;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderTimeline(counted: CountedChain | undefined, decisions: RetryDecisionRecord[]): string[] {
  const lines: string[] = [];
  if (counted !== undefined) {
    const { chain } = counted;
    const ended = chain.endedAt === null ? 'still open' : `ended ${isoTime(chain.endedAt)}`;
    const finalError = chain.finalError === null ? '' : `; final error: ${oneLine(chain.finalError)}`;
    lines.push(`Retry chain \`${chain.id}\`: ${chainCount(counted)} (${ended})${finalError}`);
  }
  if (decisions.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(...decisions.map(renderDecision));
  }
  return lines;
}

/**
 * Counted as the chat's card counts (docs/retry-policy.md, "Counting"): from the chain's failed
 * turns, not from the retries it started — a retry cancelled in its wait was never sent.
 */
function chainCount({ chain, failed }: CountedChain): string {
  const retries = (n: number): string => `${n} ${n === 1 ? 'retry' : 'retries'}`;
  if (chain.outcome === 'recovered') return `**recovered** after ${retries(failed)}`;
  if (failed === 0) return `**${chain.outcome}**`;
  if (failed === 1) return `**${chain.outcome}**: the first try failed`;
  return `**${chain.outcome}**: the first try and ${retries(failed - 1)} failed`;
}

function renderDecision(decision: RetryDecisionRecord): string {
  const wait = decision.action === 'retry' ? ` in ${waitWords(decision.waitSeconds)}` : '';
  const final = decision.finalDecision === null ? '' : ` — final: ${decision.finalDecision}`;
  return (
    `- ${decision.timestamp} [${decision.level}] attempt ${decision.attempt}, ${decision.errorType} (${decision.category}): ` +
    `**${decision.action}**${wait}${final} — ${oneLine(decision.reason)}`
  );
}

/** A wait as the window says it: seconds to a tenth under a minute, then minutes and hours, rounded up. */
function waitWords(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

function stopNote(turn: TurnRecord): string {
  return turn.stopReason === null || turn.stopReason === 'stop' ? '' : ` · stopped: ${turn.stopReason}`;
}

function modelName(provider: string, model: string): string {
  if (provider === '') return model || 'unknown';
  return `${provider}/${model || 'unknown'}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function slug(title: string): string {
  return title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
}

function isoTime(epochMs: number): string {
  return Number.isFinite(epochMs) ? new Date(epochMs).toISOString() : 'unknown time';
}

function isoDate(epochMs: number): string {
  return Number.isFinite(epochMs) ? new Date(epochMs).toISOString().slice(0, 10) : 'undated';
}
