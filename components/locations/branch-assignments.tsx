'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { Notice } from '@/components/ui/notice';
import type { Location } from '@/lib/locations/locations';
import { setUserLocation } from '@/server/actions/locations';

export interface Assignment {
  id: number;
  email: string;
  role: string;
  locationId: number | null;
}

/** Which branch each teammate works at (Team): a cashier's till money is recorded there. */
export function BranchAssignments({ members, branches }: { members: Assignment[]; branches: Location[] }) {
  const t = useTranslations('Locations');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (branches.length === 0) return <p className="text-sm text-slate-600">{t('noneYet')}</p>;

  const change = async (member: Assignment, value: string) => {
    const result = await setUserLocation({ user_id: member.id, location_id: value === '' ? null : Number(value) });
    setMessage(result.ok ? { tone: 'success', text: t('saved', { email: member.email }) } : { tone: 'error', text: errorText(result) });
    router.refresh();
  };

  return (
    <div className="space-y-3">
      <ul className="space-y-2 text-sm">
        {members.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-2">
            <label htmlFor={`branch-of-${m.id}`} className="min-w-0 break-all text-slate-900">
              {m.email}
            </label>
            <select
              id={`branch-of-${m.id}`}
              defaultValue={m.locationId === null ? '' : String(m.locationId)}
              onChange={(e) => void change(m, e.target.value)}
              className="min-h-10 rounded-lg border border-slate-300 bg-white px-2"
            >
              <option value="">{t('noBranch')}</option>
              {branches.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ul>
      {message && (
        <Notice tone={message.tone} testId="branch-notice">
          {message.text}
        </Notice>
      )}
    </div>
  );
}
