import type { ReactNode } from 'react';
import './globals.css';

// Every page is rendered per request: Next.js puts the request's CSP nonce on its scripts only when it renders.
export const dynamic = 'force-dynamic';

export const metadata = { title: 'Gift cards', description: 'Stored-value gift cards for businesses' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
