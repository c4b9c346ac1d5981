import { describe, expect, it } from 'vitest';
import { localeFromAcceptLanguage } from './locale';

describe('localeFromAcceptLanguage', () => {
  it.each([
    ['am-ET,am;q=0.9,en;q=0.8', 'am'],
    ['en-US,en;q=0.9,am;q=0.8', 'en'],
    ['fr-FR,am;q=0.5', 'am'],
    ['de,fr', 'en'],
    ['en;q=0.4,am;q=0.6', 'am'],
    ['am;q=0,en', 'en'],
    ['AM', 'am'],
    ['', 'en'],
    [null, 'en'],
  ])('%s → %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});
