import { getDb } from '@/lib/db/client';
import { checkReadiness } from '@/lib/lifecycle/readiness';

export const dynamic = 'force-dynamic';

/** Readiness for a balancer: 200 when this instance should get traffic, else 503 with the check that failed. */
export async function GET() {
  const { ready, checks } = await checkReadiness(getDb());
  return Response.json({ status: ready ? 'ready' : 'unavailable', checks }, { status: ready ? 200 : 503 });
}
