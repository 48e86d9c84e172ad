// Page object for what the file history shows in the chat (docs/file-history.md, "In the chat"): a
// run's "Changed N files" row with Review and its diffs, Undo, Redo and the question for a file
// changed since; Restore files to here on an earlier message and its preview. Works in both hosts.
import type { Locator, Page } from '@playwright/test';

/** The question for a file the person changed since the run: which files, Cancel, Keep yours. */
export class ChangedSinceQuestion {
  readonly cancel: Locator;
  readonly keepYours: Locator;

  constructor(readonly root: Locator) {
    this.cancel = root.getByRole('button', { name: 'Cancel' });
    this.keepYours = root.getByRole('button', { name: 'Keep yours' });
  }

  /** The question inside a row or a preview (found by its English name). */
  static in(scope: Locator): ChangedSinceQuestion {
    return new ChangedSinceQuestion(scope.getByRole('group', { name: /changed since this turn/ }));
  }
}

/** One run's row: its summary, Review and the diffs it opens, Undo, Redo and the conflict question. */
export class FileChangesRow {
  readonly summary: Locator;
  readonly reviewButton: Locator;
  readonly undo: Locator;
  readonly redo: Locator;
  /** The diffs Review opens. */
  readonly review: Locator;
  /** The question's box, found by test id (for the screenshots in every language). */
  readonly conflict: Locator;
  readonly question: ChangedSinceQuestion;
  /** The row's buttons in order (Review, Undo or Redo), for the screenshots in every language. */
  readonly buttons: Locator;

  constructor(readonly root: Locator) {
    this.summary = root.getByTestId('file-changes-summary');
    this.reviewButton = root.getByRole('button', { name: 'Review' });
    this.undo = root.getByRole('button', { name: 'Undo' });
    this.redo = root.getByRole('button', { name: 'Redo' });
    this.review = root.getByTestId('file-review');
    this.conflict = root.getByTestId('file-conflict');
    this.question = ChangedSinceQuestion.in(root);
    this.buttons = root.locator('button');
  }
}

/** Restore files to here on one user message, and the preview it opens. */
export class RestoreFiles {
  /** The button, by its English name. */
  readonly button: Locator;
  /** The button, by test id (for the screenshots in every language). */
  readonly buttonById: Locator;
  readonly preview: Locator;
  /** The preview's lines, one per file. */
  readonly previewLines: Locator;
  readonly cancel: Locator;
  readonly restore: Locator;
  readonly question: ChangedSinceQuestion;

  constructor(message: Locator) {
    this.button = message.getByRole('button', { name: 'Restore files to here' });
    this.buttonById = message.getByTestId('restore-files');
    this.preview = message.getByTestId('restore-preview');
    this.previewLines = this.preview.locator('li');
    this.cancel = this.preview.getByRole('button', { name: 'Cancel' });
    this.restore = this.preview.getByRole('button', { name: 'Restore', exact: true });
    this.question = ChangedSinceQuestion.in(this.preview);
  }
}

/** Every run's row in a page or a part of it (the chat, or a history session's detail). */
export class FileChanges {
  readonly rows: Locator;
  /** Every row's summary line. */
  readonly summaries: Locator;
  /** What a tool card says the history did not keep. */
  readonly notRecorded: Locator;
  /** A failed card's line naming the files its run changed. */
  readonly erroredChangedFiles: Locator;

  constructor(scope: Page | Locator) {
    this.rows = scope.getByTestId('file-changes');
    this.summaries = scope.getByTestId('file-changes-summary');
    this.notRecorded = scope.getByTestId('tool-card-not-recorded');
    this.erroredChangedFiles = scope.getByTestId('errored-changed-files');
  }

  /** The only row, or the one at `index`. */
  row(index?: number): FileChangesRow {
    return new FileChangesRow(index === undefined ? this.rows : this.rows.nth(index));
  }
}
