import { describe, expect, it } from 'vitest';
import { commonPasswords } from '../../src/lib/data/commonPasswords.ts';
import {
  confirmPasswordError,
  normalizeActivationCode,
  PASSWORD_MAX_LENGTH,
  passwordErrors,
  validateActivationCodeFormat,
  validateEmail,
} from '../../src/lib/validation.ts';

const COMMON_PASSWORDS = commonPasswords();

describe('validateEmail', () => {
  it.each([
    'tenant@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'brien@example.dk",
    'a@b.dk',
    'user@blåbær.no',
    'user@xn--blbr-roa.no',
    '  padded@example.com  ',
    'UPPER@EXAMPLE.COM',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s', (email) => {
    expect(validateEmail(email)).toBeNull();
  });

  it.each([
    '',
    '   ',
    'plain',
    '@example.com',
    'user@',
    'user@localhost',
    'user@example',
    'user@example.c',
    'user@@example.com',
    'a@b@example.com',
    '.user@example.com',
    'user.@example.com',
    'us..er@example.com',
    'us er@example.com',
    'user@exa mple.com',
    'user@-example.com',
    'user@example-.com',
    'user@example..com',
    'user@.example.com',
    'user@example.com.',
    'user@example.123',
    '"quoted"@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
  ])('refuses %j', (email) => {
    expect(validateEmail(email)).toBe('email_invalid');
  });
});

describe('passwordErrors', () => {
  it('accepts a strong password', () => {
    expect(passwordErrors('Tr0ub4dor&3horse')).toEqual([]);
  });

  it('lists every broken rule for an empty password', () => {
    expect(passwordErrors('')).toEqual([
      'password_too_short',
      'password_no_capital',
      'password_no_lowercase',
      'password_no_digit',
      'password_no_special',
    ]);
  });

  it('has the length boundary at 12 characters', () => {
    expect(passwordErrors('Abcdefgh1!x')).toEqual(['password_too_short']); // 11
    expect(passwordErrors('Abcdefgh1!xy')).toEqual([]); // 12
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordErrors('Æblegrød1!😀x')).toEqual([]); // 12 code points
    expect(passwordErrors('Æblegrød1!😀')).toEqual(['password_too_short']); // 11 code points, 12 units
  });

  it('allows at least 64 characters and refuses over the maximum', () => {
    const long = `Aa1!${'x'.repeat(60)}`;
    expect(long).toHaveLength(64);
    expect(passwordErrors(long)).toEqual([]);
    expect(passwordErrors(`Aa1!${'x'.repeat(PASSWORD_MAX_LENGTH - 4)}`)).toEqual([]);
    expect(passwordErrors(`Aa1!${'x'.repeat(PASSWORD_MAX_LENGTH - 3)}`)).toEqual(['password_too_long']);
  });

  it.each([
    ['abcdefgh123!', 'password_no_capital'],
    ['ABCDEFGH123!', 'password_no_lowercase'],
    ['Abcdefghijk!', 'password_no_digit'],
    ['Abcdefgh1234', 'password_no_special'],
    ['Abcdefgh 1234', 'password_no_special'],
  ])('%s breaks only %s', (password, code) => {
    expect(passwordErrors(password)).toEqual([code]);
  });

  it('takes non-ASCII letters as capitals and small letters', () => {
    expect(passwordErrors('ÆØÅæøå12345!')).toEqual([]);
  });

  it.each([
    'Password123!',
    'Welcome2024!',
    'Velkommen2025!',
    'P@ssw0rd1234',
    '1qaz@WSX3edc',
    'qWERTY12345!',
    'Sommer2024!!',
  ])('refuses the common password %s', (password) => {
    expect(passwordErrors(password)).toEqual(['password_too_common']);
  });

  it('ships a list of a few thousand entries that would otherwise pass', () => {
    expect(COMMON_PASSWORDS.length).toBeGreaterThan(2000);
    expect(COMMON_PASSWORDS.length).toBeLessThan(20000);
    expect(new Set(COMMON_PASSWORDS).size).toBe(COMMON_PASSWORDS.length);
    for (const entry of COMMON_PASSWORDS) {
      expect(entry, entry).toBe(entry.toLowerCase());
      expect([...entry].length, entry).toBeGreaterThanOrEqual(12);
    }
  });
});

describe('confirmPasswordError', () => {
  it('is null when equal and passwords_mismatch otherwise', () => {
    expect(confirmPasswordError('Abcdefgh123!', 'Abcdefgh123!')).toBeNull();
    expect(confirmPasswordError('Abcdefgh123!', 'abcdefgh123!')).toBe('passwords_mismatch');
    expect(confirmPasswordError('Abcdefgh123!', '')).toBe('passwords_mismatch');
  });
});

describe('activation code', () => {
  it('strips dashes and spaces and upper-cases', () => {
    expect(normalizeActivationCode(' abcd-efgh ijkl ')).toBe('ABCDEFGHIJKL');
    expect(normalizeActivationCode('abcd–efgh—ijkl')).toBe('ABCDEFGHIJKL');
  });

  it.each(['ABCDEFGHIJKL', 'abcd-efgh-ijkl', 'Abcd Efgh Ijkl', 'AB-CD-EF-GH-IJ-KL'])('accepts %s', (raw) => {
    expect(validateActivationCodeFormat(raw)).toEqual({ ok: true, code: 'ABCDEFGHIJKL' });
  });

  it.each([
    '',
    'ABCDEFGHIJK',
    'ABCDEFGHIJKLM',
    'ABCDEFGHIJK1',
    'ABCDEFGHIJKÆ',
    'ABCD_EFGH_IJKL',
    'ABCD.EFGH.IJKL',
    'abcdefghijß', // 'ß'.toUpperCase() is 'SS', which must not make 12 letters
    'abcdefghijkﬁ',
    'abcdefghijkı',
  ])('refuses %j', (raw) => {
    expect(validateActivationCodeFormat(raw)).toEqual({ ok: false, error: 'activation_code_invalid' });
  });
});
