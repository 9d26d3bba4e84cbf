/**
 * SPEC §5 activation codes, in a module of their own: pages that only handle a code (the pending-code modal
 * on every app page) do not pull in the password rules and their common-password list.
 */

/** SPEC §5: an activation code has 12 letters. */
const ACTIVATION_CODE_LENGTH = 12;

/**
 * Strips dashes and whitespace and upper-cases the letters a–z of an activation code, as it is sent to the server.
 * Only ASCII letters change case, so no other character can turn into one (toUpperCase makes 'ß' into 'SS').
 */
export function normalizeActivationCode(raw: string): string {
  return raw.replace(/[\s\-‐‑‒–—]/g, '').replace(/[a-z]/g, (c) => c.toUpperCase());
}

/** SPEC §5: a normalised activation code is exactly 12 letters A–Z. */
export function validateActivationCodeFormat(
  raw: string,
): { ok: true; code: string } | { ok: false; error: 'activation_code_invalid' } {
  const code = normalizeActivationCode(raw);
  return code.length === ACTIVATION_CODE_LENGTH && /^[A-Z]+$/.test(code)
    ? { ok: true, code }
    : { ok: false, error: 'activation_code_invalid' };
}
