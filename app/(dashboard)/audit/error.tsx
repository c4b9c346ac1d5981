'use client';

import { RouteError } from '@/components/ui/route-error';

export default function AuditError({ reset }: { error: Error; reset: () => void }) {
  return <RouteError what="audit" reset={reset} />;
}
