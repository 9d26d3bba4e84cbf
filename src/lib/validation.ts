import { commonPasswords } from './data/commonPasswords.ts';

/** Password failure codes; the messages are `validation.<code>` in the domain namespace. */
export type PasswordError =
  | 'password_too_short'
  | 'password_too_long'
  | 'password_no_capital'
  | 'password_no_lowercase'
  | 'password_no_digit'
  | 'password_no_special'
  | 'password_too_common';

/** SPEC §5 and §9: a password has at least 12 characters. */
const PASSWORD_MIN_LENGTH = 12;
/** Generous upper bound so passphrases and password managers fit (at least 64 must be allowed). */
export const PASSWORD_MAX_LENGTH = 128;
/** RFC 5321 path limit; the local part is capped at 64. */
const EMAIL_MAX_LENGTH = 254;

let common: Set<string> | undefined;
/** Built on first use, so bundles that never check a password (the login form) leave the list out. */
function isCommonPassword(lowercased: string): boolean {
  common ??= new Set(commonPasswords());
  return common.has(lowercased);
}

/** Trims an entered email address; validation and the server both see the trimmed form. */
export function normalizeEmail(value: string): string {
  return value.trim();
}

// Local part: RFC 5322 dot-atom characters, no leading, trailing or double dots (quoted forms are refused).
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// Domain label: letters (including IDN letters such as æøå), digits and inner hyphens, at most 63 characters.
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const TOP_LEVEL = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/** Checks an email address after trimming; the rules are in docs/domain.md. */
export function validateEmail(value: string): 'email_invalid' | null {
  const email = normalizeEmail(value);
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return 'email_invalid';
  const at = email.lastIndexOf('@');
  if (at <= 0 || email.indexOf('@') !== at) return 'email_invalid';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return 'email_invalid';
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return 'email_invalid';
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return 'email_invalid';
  if (!TOP_LEVEL.test(labels[labels.length - 1] ?? '')) return 'email_invalid';
  return null;
}

/** Every rule a password breaks, in the order the form lists them; empty when it is acceptable. */
export function passwordErrors(value: string): PasswordError[] {
  const errors: PasswordError[] = [];
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH) errors.push('password_too_short');
  if (length > PASSWORD_MAX_LENGTH) errors.push('password_too_long');
  if (!/\p{Lu}/u.test(value)) errors.push('password_no_capital');
  if (!/\p{Ll}/u.test(value)) errors.push('password_no_lowercase');
  if (!/\p{Nd}/u.test(value)) errors.push('password_no_digit');
  // Special: anything that is not a letter, a digit or whitespace (a space alone does not count).
  if (!/[^\p{L}\p{N}\s]/u.test(value)) errors.push('password_no_special');
  // Only a password that passes everything else is checked against the list, so messages stay one at a time.
  if (errors.length === 0 && isCommonPassword(value.toLowerCase())) errors.push('password_too_common');
  return errors;
}

/** SPEC §5: the confirmation must equal the password. */
export function confirmPasswordError(password: string, confirmation: string): 'passwords_mismatch' | null {
  return password === confirmation ? null : 'passwords_mismatch';
}

export { normalizeActivationCode, validateActivationCodeFormat } from './activationCode.ts';
