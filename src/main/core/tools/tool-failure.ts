// The tool failures that end a turn at once (docs/tools.md, "Which failure is which"): the
// sandbox cannot run (`sandbox`), a call reached outside its confinement (`sandbox_security`), an
// edit does not apply (`patch_apply`). The node tools throw ToolFailure; the ToolCoordinator
// catches it, audits a security failure first, and reports it through the ToolFailureGate so the
// turn ends as an errored turn that the classifier and the decision table handle like any other.

import type { ToolFailureCategory } from '../../../shared/error-category';

export type { ToolFailureCategory };

export class ToolFailure extends Error {
  /**
   * @param category which decision-table row handles it
   * @param message what happened and, for `sandbox`, how to fix it
   * @param target the path or operation refused (recorded in the sandbox audit log)
   */
  constructor(
    readonly category: ToolFailureCategory,
    message: string,
    readonly target: string = '',
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

/** A path outside the workspace: a security failure naming what was refused. */
export function outsideWorkspace(path: string, reason: string): ToolFailure {
  return new ToolFailure('sandbox_security', `Refused: ${reason}. Tools work only inside the workspace.`, path);
}

/**
 * A call stopped by Stop or a quit while it ran: not a failure of the tool, an ordinary (error)
 * result — but a quit must keep `output`, what it printed so far (docs/tools.md, "Runs cut by a
 * quit or a crash"), without the note its message adds.
 */
export class ToolAborted extends Error {
  constructor(
    readonly output: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolAborted';
  }
}
