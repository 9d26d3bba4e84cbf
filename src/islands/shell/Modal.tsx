/**
 * SPEC §2/§9 modal: panel (max 484 px wide) or stretch (max 706 px), body at most 80vh (96vh on larger
 * screens), with a close control. A native <dialog> opened with showModal(), so focus is trapped, Escape
 * closes it and focus returns to the opener without code of ours.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Icon } from './Icons.tsx';
import './modal.css';

type Props = {
  open: boolean;
  onClose: () => void;
  title: string;
  /** Label of the close button, in the page's language. */
  closeLabel: string;
  variant?: 'panel' | 'stretch';
  children: ReactNode;
};

/** A modal dialog. */
export function Modal({ open, onClose, title, closeLabel, variant = 'panel', children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={`modal modal-${variant}`} aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={closeLabel}>
          <Icon name="close" />
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}
