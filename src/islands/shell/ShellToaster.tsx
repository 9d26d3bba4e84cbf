/** The page's toaster (SPEC §9 toasts), loaded by the shell when it may be needed (see AppShell). */
import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { takeFlashToast } from '../../client/flashToast.ts';
import { MAX_VISIBLE_TOASTS, toastDuration } from '../../lib/toastPolicy.ts';
import { Icon } from './Icons.tsx';

/**
 * The success mark, drawn at once. The library's own draws a grey loading ring first and animates the check in
 * over it, which on a busy phone (or in a screenshot) reads as a spinner that never finishes.
 */
const SUCCESS_ICON = (
  <span
    className="toast-check"
    data-testid="toast-check"
    style={{ color: '#0a7d32', display: 'inline-flex' }}
  >
    <Icon name="check" />
  </span>
);

export default function ShellToaster() {
  const { toasts } = useToasterStore();
  // A message kept across a full page load (flashToast.ts), shown once.
  useEffect(() => {
    const message = takeFlashToast();
    if (message) toast.success(message);
  }, []);
  useEffect(() => {
    // SPEC §9: at most 20 toasts are visible; the oldest beyond that are dismissed.
    const visible = toasts.filter((item) => item.visible);
    for (const extra of visible.slice(MAX_VISIBLE_TOASTS)) toast.dismiss(extra.id);
  }, [toasts]);
  return (
    <Toaster
      position="top-right"
      toastOptions={{
        duration: toastDuration('data', 'plain'),
        success: { duration: toastDuration('data', 'success'), icon: SUCCESS_ICON },
        error: { duration: toastDuration('data', 'error') },
        loading: { duration: toastDuration('data', 'loading') },
      }}
    />
  );
}
