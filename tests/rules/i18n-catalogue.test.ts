import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../lib/errors';
import { LOCALES } from '../../lib/i18n/locale';
import { sourceFiles } from './client-files';
import { catalogueProblems, flatten, type KeyUse, keysUsedIn } from './i18n-keys';

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * Where the words people read are written: pages, components and the Next.js glue; lib/ holds no words for people
 * but the cardholders' messages, which lib/messages/ renders from the catalogues (cardholderTranslator), and the bare
 * refusal page lib/api/refusal-page.ts draws outside Next.js.
 */
const SOURCE_DIRS = ['app', 'components', 'server', 'lib/messages', 'lib/api'];

const catalogue = (locale: string) => flatten(JSON.parse(fs.readFileSync(path.join(ROOT, 'messages', `${locale}.json`), 'utf8')));

describe('message catalogues', () => {
  it('hold every key the code uses, nothing it does not, in every language alike', () => {
    const uses: KeyUse[] = [];
    const unreadable: string[] = [];
    for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
      const found = keysUsedIn(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
      uses.push(...found.uses);
      unreadable.push(...found.problems);
    }
    expect(unreadable).toEqual([]);
    expect(uses.length).toBeGreaterThan(0);
    expect(catalogueProblems(uses, Object.fromEntries(LOCALES.map((l) => [l, catalogue(l)])))).toEqual([]);
  });

  it('refuse a key used but missing, a key nothing uses, and a language short of a key', () => {
    const { uses } = keysUsedIn(
      'page.tsx',
      `const t = useTranslations('Nav'); const e = await getTranslations({ locale, namespace: 'Errors' });
       t('cards'); t.rich('gone'); e(\`codes.\${code}\`);`,
    );
    expect(uses.map((u) => u.key)).toEqual(['Nav.cards', 'Nav.gone', 'Errors.codes.']);
    const en = new Map([
      ['Nav.cards', 'Cards'],
      ['Nav.unused', 'Unused'],
      ['Errors.codes.not_found', 'Not found'],
      ['Nav.count', '{count, plural, one {# card} other {# cards}}'],
    ]);
    const am = new Map([
      ['Nav.cards', 'ካርዶች'],
      ['Errors.codes.not_found', ''],
      ['Nav.count', '{n} ካርዶች'],
    ]);
    expect(catalogueProblems(uses, { en, am })).toEqual([
      'page.tsx:2: Nav.gone is missing from messages/en.json',
      'page.tsx:2: Nav.gone is missing from messages/am.json',
      'Nav.unused in messages/en.json is used nowhere',
      'Nav.count in messages/en.json is used nowhere',
      'Nav.unused is missing from messages/am.json',
      'Nav.count: messages/am.json has arguments n where messages/en.json has count',
      'Errors.codes.not_found is empty in messages/am.json',
    ]);
  });

  it('reads translators made together in Promise.all', () => {
    const { uses } = keysUsedIn(
      'page.tsx',
      `const [t, shell, db] = await Promise.all([getTranslations('Team'), getTranslations('Shell'), getDb()]); t('title'); shell('roles.owner');`,
    );
    expect(uses.map((u) => u.key)).toEqual(['Team.title', 'Shell.roles.owner']);
  });

  it('refuses a key it cannot read', () => {
    expect(keysUsedIn('x.tsx', `const t = useTranslations('Nav'); t(key);`).problems).toEqual(['x.tsx:1: a message key the test cannot read: t(key)']);
  });
});

describe('error codes', () => {
  it('each has a sentence in every language, for the dashboard to show in the person’s own', () => {
    for (const locale of LOCALES) {
      const messages = catalogue(locale);
      expect(
        Object.keys(ERRORS).filter((code) => !messages.get(`Errors.codes.${code}`)),
        locale,
      ).toEqual([]);
    }
  });
});
