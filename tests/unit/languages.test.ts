import { describe, expect, it } from 'vitest';
import { LANGUAGES, numberLocale, parseLanguage } from '../../src/lib/languages.ts';

describe('parseLanguage', () => {
  it.each([
    ['en', 'en'],
    ['da', 'da'],
    ['nb', 'nb'],
    ['nb-NO', 'nb'],
    ['da-DK', 'da'],
    ['da_DK', 'da'],
    ['en-GB', 'en'],
    ['EN-us', 'en'],
    ['no', 'nb'],
    ['nn-NO', 'nb'],
    [' da ', 'da'],
  ])('reads %j as %s', (input, expected) => {
    expect(parseLanguage(input)).toBe(expected);
  });

  it.each([
    ['sv'],
    ['de-DE'],
    [''],
    [null],
    [undefined],
    [42],
    [{}],
    ['english'],
    ['constructor'],
    ['toString-NO'],
    ['__proto__'],
  ])('refuses %j', (input) => {
    expect(parseLanguage(input)).toBeNull();
  });
});

describe('numberLocale', () => {
  it('uses en-GB for English and da-DK for Danish and Norwegian', () => {
    expect(LANGUAGES.map(numberLocale)).toEqual(['en-GB', 'da-DK', 'da-DK']);
  });
});
