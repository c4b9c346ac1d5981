'use client';

import { RouteError } from '@/components/ui/route-error';

export default function TeamError({ reset }: { error: Error; reset: () => void }) {
  return <RouteError what="team" reset={reset} />;
}
