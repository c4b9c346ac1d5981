import type { ReactNode } from 'react';

const TONES = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
} as const;

/**
 * The outcome of an action, in a live region so screen readers announce it:
 * errors as alerts, everything else politely.
 */
export function Notice({ tone, children, testId }: { tone: keyof typeof TONES; children: ReactNode; testId?: string }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-lg border px-3 py-2 text-sm [overflow-wrap:anywhere] ${TONES[tone]}`}
    >
      {children}
    </div>
  );
}
