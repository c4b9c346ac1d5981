'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { useFieldText } from '@/components/forms/field-text';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { UploadKind } from '@/lib/uploads/upload-kinds';

/** Picks a CSV file and sends it for checking; the job page then shows the preview. */
export function UploadForm({ kind, columns, maxRows, maxMegabytes }: { kind: UploadKind; columns: readonly string[]; maxRows: number; maxMegabytes: number }) {
  const t = useTranslations('Uploads');
  const errors = useTranslations('Errors');
  const locale = useLocale();
  const fieldText = useFieldText();
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return setError(t('form.chooseFirst'));
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/dashboard/uploads/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'x-file-name': encodeURIComponent(file.name) },
        body: file,
      });
      const body = await res.json().catch(() => null);
      if (res.ok) return router.push(`/${kind}/upload/${body.data.reference}`);
      const detail = body?.error;
      if (typeof detail === 'object' && detail)
        setError(
          Object.values(detail as Record<string, string>)
            .map(fieldText)
            .join(' '),
        );
      // SPEC's envelope names no code: a refusal other than the file's own checks is said by its status in another language.
      else if (locale !== 'en') setError(res.status === 413 ? errors('codes.payload_too_large') : t('form.failed'));
      else setError(`${body?.message ?? 'Upload failed'}${typeof detail === 'string' ? `: ${detail}` : ''}`);
    } catch {
      setError(t('form.offline'));
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="max-w-xl space-y-4 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <div>
        <label htmlFor="upload-file" className="block text-sm font-medium text-slate-800">
          {t('form.file')}
        </label>
        {/* The browser draws a file input's own button in its language, not the reader's: ours opens the same picker. */}
        <input
          ref={picker}
          id="upload-file"
          type="file"
          accept=".csv,text/csv"
          tabIndex={-1}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="sr-only"
        />
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <Button type="button" variant="secondary" block={false} onClick={() => picker.current?.click()}>
            {t('form.choose')}
          </Button>
          <span className="min-w-0 text-sm break-all text-slate-700" data-testid="upload-file-name">
            {file?.name ?? t('form.noFile')}
          </span>
        </div>
        <p className="mt-2 text-sm text-slate-600">
          {t.rich('form.columns', { columns: columns.join(', '), code: (chunks) => <code className="break-words">{chunks}</code> })}{' '}
          {t('form.limits', { rows: maxRows.toLocaleString('en'), megabytes: maxMegabytes })}
          {kind === 'payouts' && ` ${t('form.amounts')}`} {t('form.nothingSent')}
        </p>
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      <Button type="submit" disabled={busy}>
        {busy ? t('form.checking') : t('form.check')}
      </Button>
    </form>
  );
}
