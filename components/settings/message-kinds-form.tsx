'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { MessageKindSetting } from '@/lib/messages/message-kind-settings';
import { updateMessageKinds } from '@/server/actions/business';

/** The kinds of message cardholders get, each with its text as they would read it and the SMS parts it takes. */
export function MessageKindsForm({ kinds, language }: { kinds: MessageKindSetting[]; language: 'en' | 'am' }) {
  const t = useTranslations('Settings');
  const errorText = useErrorText();
  const router = useRouter();
  const [on, setOn] = useState(() => new Set(kinds.filter((k) => k.on).map((k) => k.kind)));
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setMessage(null);
    const result = await updateMessageKinds({ on: [...on] });
    setSaving(false);
    if (!result.ok) {
      setMessage({ tone: 'error', text: errorText(result) });
      return;
    }
    setMessage({ tone: 'success', text: t('messageKindsSaved') });
    router.refresh();
  };

  return (
    <form onSubmit={save} className="space-y-4" aria-label={t('messageKindsTitle')}>
      <ul className="space-y-3">
        {kinds.map((k) => (
          <li key={k.kind} className="rounded border border-slate-200 p-3">
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                name={k.kind}
                checked={on.has(k.kind)}
                onChange={(e) =>
                  setOn((prev) => {
                    const next = new Set(prev);
                    if (e.target.checked) next.add(k.kind);
                    else next.delete(k.kind);
                    return next;
                  })
                }
              />
              {t(`messageKinds.${k.kind}`)}
            </label>
            <p lang={language} className="mt-2 break-words rounded bg-slate-50 p-2 text-sm text-slate-700" data-testid={`message-preview-${k.kind}`}>
              {k.preview}
            </p>
            <p className="mt-1 text-xs text-slate-500">{t('messageParts', { count: k.parts })}</p>
          </li>
        ))}
      </ul>
      {message && (
        <Notice tone={message.tone} testId="message-kinds-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={saving} className="sm:w-auto">
        {saving ? t('saving') : t('saveMessageKinds')}
      </Button>
    </form>
  );
}
