/**
 * SPEC §2/§9 modal: panel (max 484 px wide) or stretch (max 706 px), body at most 80vh (96vh on larger
 * screens), with a close control. A native <dialog> opened with showModal(), so the page behind is inert
 * (focus stays inside) and Escape closes it; focus returns to the opener however the modal ends.
 */
import { type ReactNode, useId, useLayoutEffect, useRef } from 'react';
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
  // A layout effect, so its cleanup runs while the dialog is still in the document: a modal that is closed
  // by its parent (unmounted, or open=false) still returns focus to the element that opened it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);
  return (
    <dialog ref={ref} className={`modal modal-${variant}`} aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="icon-button"
          onClick={() => ref.current?.close()}
          aria-label={closeLabel}
        >
          <Icon name="close" />
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}
