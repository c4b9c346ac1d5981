'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { UploadKind } from '@/lib/uploads/upload-kinds';

/** Picks a CSV file and sends it for checking; the job page then shows the preview. */
export function UploadForm({ kind, columns, maxRows, maxMegabytes }: { kind: UploadKind; columns: readonly string[]; maxRows: number; maxMegabytes: number }) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return setError('Choose a CSV file first.');
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
      setError(
        typeof detail === 'object' && detail
          ? Object.values(detail).join(' ')
          : `${body?.message ?? 'Upload failed'}${typeof detail === 'string' ? `: ${detail}` : ''}`,
      );
    } catch {
      setError('We could not reach the server; check the connection and send the file again.');
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="max-w-xl space-y-4 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <div>
        <label htmlFor="upload-file" className="block text-sm font-medium text-slate-800">
          CSV file
        </label>
        <input
          id="upload-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:font-semibold"
        />
        <p className="mt-2 text-sm text-slate-600">
          Columns: <code className="break-words">{columns.join(', ')}</code>. Separated by commas or semicolons, up to {maxRows.toLocaleString('en')} rows and{' '}
          {maxMegabytes} MB.
          {kind === 'payouts' && ' Amounts in currency units (25.50).'} Nothing is sent before you check the preview and start it.
        </p>
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      <Button type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Check file'}
      </Button>
    </form>
  );
}
