/**
 * Where a user who was sent to login was going: an app page (/t/…) kept in this tab's sessionStorage, taken
 * once after the next login. Only same-origin app paths are kept, so a crafted link cannot send anyone away.
 */
const KEY = 'returnTo';

/** The app path of a URL (path, query and hash) when it is one worth returning to, else null. */
export function returnablePath(url: URL): string | null {
  if (!/^\/t\/[^/]+\/./.test(url.pathname)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return parseReturnTo(path);
}

/** A stored value as a safe app path, or null (total: anything else is null). */
export function parseReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  // One leading slash, then /t/: never "//host" or "/\host", which browsers read as another origin.
  if (!value.startsWith('/t/') || value.includes('\\') || value.includes('//')) return null;
  return value;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers the page of this URL (an app page only) for after the next login. */
export function rememberReturnTo(url: URL): void {
  const path = returnablePath(url);
  try {
    if (path) storage()?.setItem(KEY, path);
  } catch {
    // Without storage the user lands on the dashboard, as before.
  }
}

/** The remembered page, forgotten as it is read; null when there is none. */
export function takeReturnTo(): string | null {
  const store = storage();
  try {
    const value = parseReturnTo(store?.getItem(KEY));
    store?.removeItem(KEY);
    return value;
  } catch {
    return null;
  }
}
