'use client';

import { signOut } from 'next-auth/react';
import { getQueryClient } from '@/components/providers/query-client';
import { Button } from '@/components/ui/button';

export function SignOutButton() {
  return (
    <Button
      variant="ghost"
      size="xs"
      block={false}
      onClick={() => {
        getQueryClient().clear();
        void signOut({ callbackUrl: '/login' });
      }}
    >
      Sign out
    </Button>
  );
}
