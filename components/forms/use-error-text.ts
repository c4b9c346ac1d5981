'use client';

import { useLocale, useTranslations } from 'next-intl';
import type { ActionFailure } from '@/lib/actions/define-action';

/**
 * What a refused action says to the person: in English the core's own sentence (SPEC.md's title and its detail),
 * in another language the catalogue's sentence for the error's code, since the detail is written in English.
 */
export function useErrorText(): (failure: Pick<ActionFailure, 'code' | 'message'>) => string {
  const t = useTranslations('Errors');
  const locale = useLocale();
  return (failure) => (locale === 'en' ? failure.message : t(`codes.${failure.code}`));
}
