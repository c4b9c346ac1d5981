import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import { clientMessages } from '@/lib/i18n/client-messages';
import './globals.css';

// Every page is rendered per request: Next.js puts the request's CSP nonce on its scripts only when it renders.
export const dynamic = 'force-dynamic';

export const metadata = { title: 'Gift cards', description: 'Stored-value gift cards for businesses' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={await getLocale()}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <NextIntlClientProvider messages={clientMessages(await getMessages())}>{children}</NextIntlClientProvider>
      </body>
    </html>
  );
}
