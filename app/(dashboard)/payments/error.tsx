'use client';

import { RouteError } from '@/components/ui/route-error';

export default function PaymentsError({ reset }: { error: Error; reset: () => void }) {
  return <RouteError what="payments" reset={reset} />;
}
