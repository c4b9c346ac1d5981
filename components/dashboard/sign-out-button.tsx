'use client';

import { signOut } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { getQueryClient } from '@/components/providers/query-client';
import { Button } from '@/components/ui/button';

export function SignOutButton() {
  const t = useTranslations('Shell');
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
      {t('signOut')}
    </Button>
  );
}
