'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { switchMode } from '@/server/actions/mode';

export function ModeSwitch({ mode }: { mode: 'test' | 'live' }) {
  const t = useTranslations('Shell');
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <fieldset className="flex items-center gap-1 rounded-lg bg-slate-100 p-1 text-sm" disabled={pending}>
      <legend className="sr-only">{t('mode')}</legend>
      {(['test', 'live'] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          data-testid={`mode-${m}`}
          onClick={() =>
            start(async () => {
              await switchMode(m);
              router.refresh();
            })
          }
          className={`rounded-md px-3 py-1 font-medium capitalize focus-visible:outline-2 focus-visible:outline-emerald-700 ${mode === m ? (m === 'test' ? 'bg-amber-400 text-amber-950' : 'bg-emerald-700 text-white') : 'text-slate-700 hover:bg-white'}`}
        >
          {t(`modes.${m}`)}
        </button>
      ))}
    </fieldset>
  );
}
