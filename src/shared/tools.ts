// The agent's tools as every process sees them (docs/tools.md): the approval request the chat and
// RPC clients answer, the details a finished call carries for its card, and the sandbox audit
// record. Which tools exist is the main process's registry (src/main/node/tools/builtin-tools.ts,
// and MCP servers at run time), so a name here is any string. Pure types and constants, shared by the main process (tools, history) and the renderer (tool and approval cards).
import { isToolFailureCategory, type ToolFailureCategory } from './error-category';
import type { FileChangeSummary } from './file-history';

/** The result a denied call gives the model; the chat shows such a call as denied. */
export const DENIED_RESULT =
  'The user denied this tool call. Do not run it again; ask the user what they want instead.';

/** The range of `tools.timeoutMs`, the ceiling of one `bash` call, ms. */
export const TOOL_TIMEOUT_RANGE = { min: 1_000, max: 3_600_000, unit: 'ms' } as const;

/** Allow once, allow this tool for the rest of the session, or refuse (the model is told). */
export const APPROVAL_CHOICES = ['once', 'session', 'deny'] as const;
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number];

/** What the approval card shows: the command, or the change as a diff. */
export type ApprovalPreview =
  /** timeoutSeconds: what the model asked for, or null (the `tools.timeoutMs` ceiling applies). */
  | { kind: 'command'; command: string; timeoutSeconds: number | null }
  /** A tool with no preview of its own (an MCP server's): its arguments as pretty JSON. */
  | { kind: 'arguments'; arguments: string }
  /**
   * The whole diff, never cut: the window shows its head with a "show all" note, RPC's confirm
   * says how much its message leaves out. `whole`: the texts were too different to compare line by
   * line (docs/tools.md, "Approvals"), so the diff removes every old line and adds every new one.
   */
  | {
      kind: 'diff';
      path: string;
      diff: string;
      isNewFile: boolean;
      whole?: { beforeLines: number; afterLines: number } | null;
      /** Where the file really is (workspace-relative) when links lead elsewhere than `path` says. */
      realPath?: string;
    };

export interface ApprovalRequest {
  id: string;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  preview: ApprovalPreview;
  /** Epoch ms. */
  requestedAt: number;
}

/** The `details` of a tool result: what a tool card shows besides the text the model saw. */
export interface ToolResultDetails {
  /** Wall time of the call, ms. */
  durationMs?: number;
  /** bash: the command's exit code (null when it was killed). */
  exitCode?: number | null;
  /** bash: stopped after its timeout. */
  timedOut?: boolean;
  /** edit and write: the change as a unified diff. */
  diff?: string;
  /** The output was cut to the caps; the text says what was cut. */
  truncated?: boolean;
  /** The category of a tool failure that ended the turn. */
  failure?: ToolFailureCategory;
  /** The one line the card is known by (the tool's own summary of its arguments). */
  summary?: string;
  /** The files the call changed, as recorded in the file history (docs/file-history.md). */
  files?: FileChangeSummary[];
  /** What the call changed but could not record ("not recorded: …"). */
  notRecorded?: string[];
  /** An MCP server's tool: what it does to files is out of the file history's reach. */
  filesUntracked?: boolean;
  /**
   * Resolute stopped (a quit, a crash, a kill) while the call ran; it was not run again
   * (docs/tools.md, "Runs cut by a quit or a crash"). The text holds what it printed so far.
   */
  interrupted?: boolean;
  /** The call asked for approval first: the answer, and how long it waited for it (docs/tools.md, "Approvals"). */
  approval?: ToolApproval;
}

/** An approval as its call's stored result keeps it: what the person chose, after how long. */
export interface ToolApproval {
  choice: ApprovalChoice;
  /** From the question to the answer, ms (across a restart, for a question asked again). */
  waitedMs: number;
}

/** One record of logs/sandbox-audit.jsonl (and the history's sandbox_audit table). */
export interface SandboxAuditRecord {
  id: string;
  /** ISO 8601. */
  timestamp: string;
  sessionId: string;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  workspace: string;
  /** The path or operation that was refused. */
  target: string;
  reason: string;
}

/** Read a result's details defensively: they come back from JSON (history, events). */
export function toolDetailsOf(value: unknown): ToolResultDetails {
  if (typeof value !== 'object' || value === null) return {};
  const d = value as Record<string, unknown>;
  const out: ToolResultDetails = {};
  if (typeof d.durationMs === 'number') out.durationMs = d.durationMs;
  if (typeof d.exitCode === 'number' || d.exitCode === null) out.exitCode = d.exitCode;
  if (d.timedOut === true) out.timedOut = true;
  if (typeof d.diff === 'string') out.diff = d.diff;
  if (d.truncated === true) out.truncated = true;
  if (isToolFailureCategory(d.failure)) out.failure = d.failure;
  if (typeof d.summary === 'string') out.summary = d.summary;
  if (Array.isArray(d.files)) out.files = d.files.filter(isFileSummary);
  if (Array.isArray(d.notRecorded)) out.notRecorded = d.notRecorded.filter((r): r is string => typeof r === 'string');
  if (d.filesUntracked === true) out.filesUntracked = true;
  if (d.interrupted === true) out.interrupted = true;
  const approval = d.approval as Partial<ToolApproval> | undefined;
  if (APPROVAL_CHOICES.includes(approval?.choice as ApprovalChoice) && typeof approval?.waitedMs === 'number')
    out.approval = { choice: approval.choice as ApprovalChoice, waitedMs: approval.waitedMs };
  return out;
}

function isFileSummary(value: unknown): value is FileChangeSummary {
  const v = value as Partial<FileChangeSummary> | null;
  return (
    typeof v?.path === 'string' &&
    (v.kind === 'created' || v.kind === 'changed' || v.kind === 'deleted') &&
    typeof v.added === 'number' &&
    typeof v.removed === 'number'
  );
}

/** An MCP server's tool (`mcp__<server>__<tool>`, docs/mcp.md): its effects cannot be seen from here. */
export const isMcpToolName = (toolName: string): boolean => toolName.startsWith('mcp__');

/**
 * The result a call cut by a quit or a crash gives the model (docs/tools.md, "Runs cut by a quit or
 * a crash"): what it printed so far, and that it was cut off and not run again — for an MCP call,
 * that its result is unknown (a tools/call is never replayed).
 */
export function interruptedToolText(toolName: string, output: string): string {
  const said = output.replace(/\n+$/, '');
  const note = isMcpToolName(toolName)
    ? '[Interrupted when Resolute stopped: this call was cut off and its result is unknown. It was not run again; check its effects before calling it again.]'
    : '[Interrupted when Resolute stopped: this call was cut off and was not run again. Its output so far is above.]';
  return said ? `${said}\n\n${note}` : note;
}
