'use client';

import { RouteError } from '@/components/ui/route-error';

export default function CardsError({ reset }: { error: Error; reset: () => void }) {
  return <RouteError what="cards" reset={reset} />;
}
