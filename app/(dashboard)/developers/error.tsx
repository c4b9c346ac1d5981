'use client';

import { RouteError } from '@/components/ui/route-error';

export default function DevelopersError({ reset }: { error: Error; reset: () => void }) {
  return <RouteError what="developers" reset={reset} />;
}
