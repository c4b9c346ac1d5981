'use client';

import { signOut } from 'next-auth/react';
import { getQueryClient } from '@/components/providers/query-client';

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => {
        getQueryClient().clear();
        void signOut({ callbackUrl: '/login' });
      }}
      className="rounded-md px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
    >
      Sign out
    </button>
  );
}
