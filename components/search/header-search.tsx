'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { SearchResults } from '@/lib/search/search-everything';
import { SearchResultsView } from './search-results';

/** Fewer characters than this find nothing worth showing as you type. */
const MIN_CHARS = 2;
const MAX_CHARS = 100;

async function fetchResults(q: string, signal: AbortSignal): Promise<SearchResults> {
  const res = await fetch(`/api/dashboard/search?q=${encodeURIComponent(q)}`, { signal, headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const detail = body?.error;
    throw new Error(typeof detail === 'string' ? detail : (detail?.q ?? 'The search could not be run. Try again.'));
  }
  return body.data as SearchResults;
}

/** True when the key press lands in a text field, where "/" is just a character. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The search in every dashboard page's header: results as you type (TanStack
 * Query, one request per pause in typing, cached per mode and text), "/" or
 * Ctrl+K (⌘K) to jump to it, Escape to close, Enter for the full results page.
 */
export function HeaderSearch({ mode }: { mode: string }) {
  const router = useRouter();
  const [value, setValue] = useState('');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const t = useTranslations('Search');

  // One request per pause in typing, not one per key.
  useEffect(() => {
    const t = setTimeout(() => setQuery(value.trim()), 180);
    return () => clearTimeout(t);
  }, [value]);

  const enabled = query.length >= MIN_CHARS;
  const { data, error, isFetching } = useQuery({
    queryKey: ['dashboard-search', mode, query],
    queryFn: ({ signal }) => fetchResults(query, signal),
    enabled,
    staleTime: 15_000,
    retry: false,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && box.current?.contains(document.activeElement)) {
        setOpen(false);
        input.current?.focus();
        return;
      }
      const shortcut = (e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey);
      if (shortcut || (e.key === '/' && !typing(e.target) && !e.altKey && !e.ctrlKey && !e.metaKey)) {
        e.preventDefault();
        input.current?.focus();
        input.current?.select();
        setOpen(true);
      }
    };
    const onPointer = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = value.trim();
    if (!q) return;
    setOpen(false);
    router.push(`/search?q=${encodeURIComponent(q)}`);
  };

  const shown = open && enabled;
  const status = !enabled
    ? ''
    : error
      ? error.message
      : data && data.query === query
        ? t('resultCount', { count: resultCount(data), query: data.query })
        : t('searching');
  return (
    <div ref={box} className="relative order-last w-full sm:order-none sm:w-auto sm:min-w-64 sm:max-w-md sm:flex-1">
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers staff use; role="search" on the form is the equivalent */}
      <form role="search" method="get" action="/search" onSubmit={submit}>
        <label htmlFor="header-search" className="sr-only">
          {t('label')}
        </label>
        <div className="relative">
          <input
            ref={input}
            id="header-search"
            name="q"
            type="search"
            value={value}
            maxLength={MAX_CHARS}
            autoComplete="off"
            spellCheck={false}
            aria-keyshortcuts="/ Control+K Meta+K"
            aria-controls={shown ? panelId : undefined}
            aria-describedby={`${panelId}-status`}
            placeholder={t('placeholder')}
            onChange={(e) => {
              setValue(e.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            className="block min-h-10 w-full rounded-lg border border-slate-300 bg-slate-50 py-2 pr-10 pl-3 text-base text-slate-900 placeholder:text-slate-500 focus-visible:bg-white focus-visible:outline-3 focus-visible:outline-emerald-700 sm:text-sm"
          />
          {!value && (
            <span
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 rounded border border-slate-300 bg-white px-1.5 font-mono text-xs text-slate-600"
            >
              /
            </span>
          )}
        </div>
      </form>
      <p id={`${panelId}-status`} role="status" className="sr-only">
        {status}
      </p>
      {shown && (
        <div
          id={panelId}
          data-testid="header-search-results"
          className="absolute right-0 left-0 z-30 mt-1 max-h-[70vh] overflow-y-auto rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-200"
        >
          {error ? (
            <p className="px-3 py-3 text-sm text-red-800">{error.message}</p>
          ) : data ? (
            <div className={isFetching && data.query !== query ? 'opacity-60' : undefined}>
              <SearchResultsView results={data} onNavigate={() => setOpen(false)} />
              <Link
                href={`/search?q=${encodeURIComponent(data.query)}`}
                onClick={() => setOpen(false)}
                className="block border-t border-slate-100 px-3 py-2 text-sm font-medium text-emerald-800 underline underline-offset-2 hover:text-emerald-950"
              >
                {t('openAll', { query: data.query })}
              </Link>
            </div>
          ) : (
            <p className="px-3 py-3 text-sm text-slate-700">{t('searching')}</p>
          )}
        </div>
      )}
    </div>
  );
}

function resultCount(r: SearchResults): number {
  return (r.cards?.length ?? 0) + (r.payouts?.length ?? 0) + (r.payments?.length ?? 0) + (r.references?.length ?? 0) + (r.businesses?.length ?? 0);
}
