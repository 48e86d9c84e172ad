// An undo or a redo of the file history as the chat drives it (docs/file-history.md, "In the chat"):
// it runs files.undo, and when a file changed since, holds the question until each such file has an
// answer (keep yours / take), then runs again with the answers. Used by FileChangesRow (Undo, Redo
// of one run), RestoreFiles (Restore files to here: scope `from`) and a failed card's ResendButton
// (Undo those changes first).
import { useState } from 'react';
import type { ConflictChoice, UndoFilePlan, UndoOutcome, UndoScope } from '../../../shared/file-history';
import { useActions } from '../store/app-store';

export interface UndoQuestion {
  redo: boolean;
  files: UndoFilePlan[];
  choices: Record<string, ConflictChoice>;
}

export interface FileUndo {
  question: UndoQuestion | null;
  /** Files the last undo could not put back, with why. */
  failed: UndoFilePlan[];
  /** Resolves true once the undo ran (false: it asks, or the call failed). */
  run: (redo: boolean, choices?: Record<string, ConflictChoice>) => Promise<boolean>;
  answer: (path: string, choice: ConflictChoice) => void;
  cancel: () => void;
}

export function useFileUndo(
  ids: { sessionId: string; turnId: string },
  scope: UndoScope,
  onDone: (outcome: UndoOutcome) => void = () => undefined,
): FileUndo {
  const actions = useActions();
  const [question, setQuestion] = useState<UndoQuestion | null>(null);
  const [failed, setFailed] = useState<UndoFilePlan[]>([]);
  const run = async (redo: boolean, choices?: Record<string, ConflictChoice>): Promise<boolean> => {
    const outcome = await actions.call('files.undo', {
      ...ids,
      ...(scope === 'from' ? { scope } : {}),
      ...(redo ? { redo } : {}),
      ...(choices ? { choices } : {}),
    });
    if (!outcome) return false;
    if (outcome.status === 'conflict') {
      setQuestion({ redo, files: outcome.files.filter((f) => f.conflict), choices: {} });
      return false;
    }
    setQuestion(null);
    setFailed(outcome.files.filter((f) => f.result === 'failed'));
    onDone(outcome);
    return true;
  };
  const answer = (path: string, choice: ConflictChoice): void => {
    if (!question) return;
    const choices = { ...question.choices, [path]: choice };
    if (question.files.every((f) => choices[f.path])) void run(question.redo, choices);
    else setQuestion({ ...question, choices });
  };
  return { question, failed, run, answer, cancel: () => setQuestion(null) };
}
