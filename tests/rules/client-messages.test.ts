import { describe, expect, it } from 'vitest';
import { CLIENT_MESSAGES } from '../../lib/i18n/client-messages';
import { clientLoadedFiles, readSource } from './client-files';
import { type KeyUse, keysUsedIn } from './i18n-keys';

/** Keys no namespace (or single key) of the list holds, and entries of the list that hold no key a client file reads. */
function coverage(uses: KeyUse[], namespaces: string[]) {
  const holds = (namespace: string, key: string) => key === namespace || key.startsWith(`${namespace}.`);
  return {
    missing: [...new Set(uses.filter((u) => !namespaces.some((n) => holds(n, u.key))).map((u) => `${u.where}: ${u.key}`))],
    unread: namespaces.filter((n) => !uses.some((u) => holds(n, u.key))),
  };
}

describe('messages sent to the browser', () => {
  it('are the namespaces the files the browser loads read, no fewer and no more', () => {
    const uses = clientLoadedFiles().flatMap((f) => keysUsedIn(f, readSource(f)).uses);
    expect(uses.length).toBeGreaterThan(100);
    expect(coverage(uses, CLIENT_MESSAGES)).toEqual({ missing: [], unread: [] });
  });

  it('refuses a namespace a client file reads that is not sent, and one sent that nothing reads', () => {
    const { uses } = keysUsedIn('planted.tsx', `const t = useTranslations('Planted'); const n = useTranslations('Nav'); t('title'); n(\`items.\${id}\`);`);
    expect(coverage(uses, ['Nav', 'Docs'])).toEqual({ missing: ['planted.tsx:1: Planted.title'], unread: ['Docs'] });
  });
});
