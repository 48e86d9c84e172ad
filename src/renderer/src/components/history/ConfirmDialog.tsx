// A modal confirmation built on the native <dialog> (focus trap, Esc to cancel and the backdrop
// come with it). The history view uses it before deleting a session.
import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ConfirmDialogProps {
  isOpen: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.isOpen && !dialog.open) dialog.showModal();
    if (!props.isOpen && dialog.open) dialog.close();
  }, [props.isOpen]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      data-testid="confirm-dialog"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 className="dialog-title" id={`${id}-title`}>
        {props.title}
      </h2>
      <div className="dialog-body" id={`${id}-body`}>
        {props.children}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" data-testid="confirm-cancel" onClick={props.onCancel} autoFocus>
          {props.cancelLabel}
        </button>
        <button type="button" className="button button-danger" data-testid="confirm-ok" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
