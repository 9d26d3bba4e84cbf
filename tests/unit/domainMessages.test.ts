import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CO2_FUN_FACTS } from '../../src/lib/co2.ts';
import { errorMessageKey, SERVER_ERROR_CODES } from '../../src/lib/errors.ts';
import { LANGUAGES } from '../../src/lib/languages.ts';
import { PERIOD_PRESETS, RESOLUTIONS } from '../../src/lib/periods.ts';
import { FACES, QUANTITY_IDS } from '../../src/lib/quantities.ts';
import { RATINGS, ratingKey } from '../../src/lib/ratings.ts';
import { passwordErrors } from '../../src/lib/validation.ts';
import { ALARM_FREQUENCIES, ALARM_STEPS, ALARM_TYPES } from '../../src/machines/alarmWizard.machine.ts';

type Tree = { [key: string]: string | Tree };
const load = (lang: string): Tree =>
  JSON.parse(readFileSync(new URL(`../../locales/${lang}/domain.json`, import.meta.url), 'utf8')) as Tree;
const lookup = (tree: Tree, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
const flatten = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : flatten(v, `${prefix}${k}.`),
  );

const bundles = Object.fromEntries(LANGUAGES.map((lang) => [lang, load(lang)]));

// Every key the domain code hands to t(); the namespace must have each in every language.
const codeKeys = [
  ...SERVER_ERROR_CODES.map(errorMessageKey),
  ...QUANTITY_IDS.map((q) => `quantities.${q}`),
  ...PERIOD_PRESETS.map((p) => `periods.preset.${p}`),
  ...RESOLUTIONS.map((r) => `periods.resolution.${r}`),
  ...FACES.map((f) => `faces.${f}`),
  ...RATINGS.map(ratingKey),
  ...CO2_FUN_FACTS.flatMap((f) => [f.textKey, f.sourceKey]),
  ...[...passwordErrors(''), 'password_too_long', 'password_too_common', 'password_required'].map(
    (c) => `validation.${c}`,
  ),
  ...[
    'email_invalid',
    'passwords_mismatch',
    'activation_code_invalid',
    'period_invalid_date',
    'period_start_after_end',
    'threshold_invalid',
    'threshold_bounds',
  ].map((c) => `validation.${c}`),
  ...ALARM_TYPES.map((a) => `alarms.type.${a}`),
  ...ALARM_FREQUENCIES.map((f) => `alarms.frequency.${f}`),
  ...ALARM_STEPS.map((s) => `alarms.step.${s}`),
  ...['today', 'day', 'last_7_days', 'last_30_days', 'last_365_days', 'month', 'year', 'custom'].map(
    (l) => `periods.label.${l}`,
  ),
];

describe('the cookie banner texts', () => {
  // SPEC §9 names the keys; the banner (ConsentBanner.astro) reads them from the reports namespace, the one set.
  it.each(LANGUAGES)('%s has cookie_consent.line1, line2, accept and reject', (lang) => {
    const reports = JSON.parse(
      readFileSync(new URL(`../../locales/${lang}/reports.json`, import.meta.url), 'utf8'),
    ) as { cookie_consent: Record<string, string> };
    for (const key of ['line1', 'line2', 'accept', 'reject'])
      expect(reports.cookie_consent[key]?.trim(), `${lang}: ${key}`).toBeTruthy();
  });
});

describe('domain messages', () => {
  it.each(LANGUAGES)('%s has every key the code uses, as a non-empty string', (lang) => {
    for (const key of codeKeys) {
      const value = lookup(bundles[lang]!, key);
      expect(typeof value === 'string' && value.trim().length > 0, `${lang}: ${key}`).toBe(true);
    }
  });

  it('has the same keys in all three languages', () => {
    const en = flatten(bundles.en!).sort();
    expect(flatten(bundles.da!).sort()).toEqual(en);
    expect(flatten(bundles.nb!).sort()).toEqual(en);
  });

  it('keeps the same interpolations in every language', () => {
    for (const key of flatten(bundles.en!)) {
      const vars = (lang: string) =>
        [...String(lookup(bundles[lang]!, key)).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(vars('da'), key).toEqual(vars('en'));
      expect(vars('nb'), key).toEqual(vars('en'));
    }
  });

  it('uses the SPEC texts verbatim in English', () => {
    const en = (key: string) => lookup(bundles.en!, key);
    expect(en('validation.passwords_mismatch')).toBe('Passwords do not match!');
    expect(en('validation.email_invalid')).toBe('The entered email-address is invalid');
    expect(en('validation.activation_code_invalid')).toBe('The activation code you entered is invalid.');
    expect(en('validation.password_no_capital')).toContain('does not contain a capital letter');
    expect(en('validation.password_no_lowercase')).toContain('small letter');
    expect(en('validation.password_no_digit')).toContain('digit');
    expect(en('validation.password_too_short')).toContain('must be at least 12 characters long');
    expect(en('validation.password_no_special')).toContain('does not contain a special character');
    expect(en('errors.invalid_credentials')).toBe('Invalid login credentials. Please try again.');
    expect(en('errors.user_exists')).toBe('A user already exists with that email');
    expect(en('errors.tenancy_user_exists')).toBe('A user already exists on the tenancy');
    expect(en('errors.email_in_admin_portal')).toContain('Email is already in use by the admin portal');
    expect(en('errors.session_expired')).toBe('Your log in expired. Please log in again.');
    expect(en('errors.password_update_failed')).toBe('Password update failed. Please try again.');
    expect(en('errors.report_unavailable')).toBe('This report is no longer available; contact landlord.');
    expect(en('errors.no_data')).toBe('Data not yet available.');
    expect(en('errors.invalid_user_response')).toBe('Invalid user response');
    expect(en('errors.invalid_auth_response')).toBe('Invalid authentication response');
    expect(en('errors.invalid_login_response')).toBe('Invalid login response');
  });
});
