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
