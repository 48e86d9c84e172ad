// What a tool call's recorded file changes come to (docs/file-history.md): several records of one
// call merged into one, and the short form its result's details carry for the card. Pure; used by
// the ToolCoordinator, which holds a call's record until its result is stored.
import type { ToolResultDetails } from '../../../shared/tools';
import type { RecordedFiles } from '../ports';

export function mergeRecorded(earlier: RecordedFiles | undefined, next: RecordedFiles): RecordedFiles {
  if (!earlier) return next;
  return {
    workspace: next.workspace,
    changes: [...earlier.changes, ...next.changes],
    contents: [...earlier.contents, ...next.contents],
    notRecorded: [...earlier.notRecorded, ...next.notRecorded],
  };
}

/** The card's files and "not recorded" lines; nothing when the call changed nothing. */
export function summaryOfRecorded(
  recorded: RecordedFiles | undefined,
): Pick<ToolResultDetails, 'files' | 'notRecorded'> {
  if (!recorded) return {};
  const files = recorded.changes.map(({ path, kind, added, removed }) => ({ path, kind, added, removed }));
  return {
    ...(files.length ? { files } : {}),
    ...(recorded.notRecorded.length ? { notRecorded: recorded.notRecorded } : {}),
  };
}
