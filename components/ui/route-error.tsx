'use client';

import { Button } from './button';

/** What a dashboard page shows when its data could not be read: nothing changed, and a retry. */
export function RouteError({ what, reset }: { what: string; reset: () => void }) {
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-900">
      <h1 className="text-lg font-semibold">The {what} could not be loaded</h1>
      <p className="mt-1 text-sm">Nothing was changed. Try again in a moment.</p>
      <Button variant="secondary" className="mt-4 sm:w-auto" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
