/**
 * SPEC §2: a failed lazy load. A page's island code that cannot be fetched (its chunk is gone: a deploy replaced
 * it) reloads the page once; a second such failure within a minute is left alone, so a real outage does not loop.
 * Any other load error (the code arrived but failed to start) goes to login. Astro reports a failed island load
 * as the cancelable `astro:hydration-error` event, after its own one retry of the import.
 */
import { isDynamicImportFailure, loadErrorAction } from '../../lib/shellRules.ts';

const KEY = 'reloadedForImport';
const LOGIN = '/login';

function reloadOnce(): void {
  const last = Number(sessionStorage.getItem(KEY) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(KEY, String(Date.now()));
  window.location.reload();
}

function toLogin(): void {
  if (window.location.pathname !== LOGIN) window.location.assign(LOGIN);
}

window.addEventListener('vite:preloadError', (event) => {
  event.preventDefault();
  reloadOnce();
});
window.addEventListener('unhandledrejection', (event) => {
  if (isDynamicImportFailure(event.reason)) reloadOnce();
});
document.addEventListener('astro:hydration-error', (event) => {
  const { error, componentUrl } = (event as CustomEvent<{ error: unknown; componentUrl: string | null }>)
    .detail;
  console.error(`Could not load ${componentUrl ?? 'a part of the page'}`, error);
  event.preventDefault();
  if (loadErrorAction(error) === 'reload') reloadOnce();
  else toLogin();
});
