import { checkHealth } from '@/lib/db/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const ok = await checkHealth();
  return Response.json(ok ? { status: 'ok' } : { status: 'unavailable' }, { status: ok ? 200 : 503 });
}
