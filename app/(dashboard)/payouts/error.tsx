'use client';

import { RouteError } from '@/components/ui/route-error';

export default function PayoutsError({ reset }: { error: Error; reset: () => void }) {
  return <RouteError what="payouts" reset={reset} />;
}
