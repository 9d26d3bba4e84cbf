/**
 * SPEC §9: the consent cookie's name and how its stored answer is read. Plain code without xstate, so the few-byte
 * script of every page (Base.astro) can read the answer without loading the banner's machine.
 */

/** The consent cookie's name (SPEC §9). */
export const CONSENT_COOKIE = 'cookieAccepted';

/** Reads the stored answer from a cookie header; null when unanswered or garbled. */
export function parseConsentCookie(cookieHeader: unknown): boolean | null {
  if (typeof cookieHeader !== 'string') return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.split('=');
    if (name?.trim() !== CONSENT_COOKIE) continue;
    const value = rest.join('=').trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
    return null;
  }
  return null;
}
