/**
 * SPEC §2: a lazy page or island load that fails because its chunk is gone (a deploy replaced it) reloads
 * the page once; a second failure within a minute is left alone, so a real outage does not loop.
 */
import { isDynamicImportFailure } from '../../lib/shellRules.ts';

const KEY = 'reloadedForImport';

function reloadOnce(): void {
  const last = Number(sessionStorage.getItem(KEY) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(KEY, String(Date.now()));
  window.location.reload();
}

window.addEventListener('vite:preloadError', (event) => {
  event.preventDefault();
  reloadOnce();
});
window.addEventListener('unhandledrejection', (event) => {
  if (isDynamicImportFailure(event.reason)) reloadOnce();
});
