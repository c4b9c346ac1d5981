import type { ReactNode } from 'react';
import { requirePage } from '@/server/session';

// The role is checked here, outside any loading boundary, so a refusal answers 403 before anything streams.
export default async function Gate({ children }: { children: ReactNode }) {
  await requirePage('settings');
  return children;
}
