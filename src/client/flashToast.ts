/**
 * A success toast that outlives a full page load: set before `window.location.assign`, shown once by the next
 * page's toaster (ShellToaster), then forgotten. Used where an action must reload the session (a tenancy added).
 */
const KEY = 'flashToast';

/** Keeps a translated message for the next page of this tab. */
export function setFlashToast(message: string): void {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    // Storage refused (private mode): the toast is lost, the action itself is done.
  }
}

/** Whether a message waits (the shell loads its toaster at once then). */
export function hasFlashToast(): boolean {
  try {
    return sessionStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

/** The waiting message, removed as it is read. */
export function takeFlashToast(): string | null {
  try {
    const message = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return null;
  }
}
