import { openBenchEnv, writeResult } from '../bench-env';
import { measureNoisyNeighbour } from './noisy-neighbour';
import { measureSharedLimitCost } from './shared-cost';

/** Business A floods far over a limit of 10/s while business B reads at a steady pace: B's p99 alone and while A is throttled. */
const env = await openBenchEnv({ server: true, serverEnv: { RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '10' } });
try {
  const r = await measureNoisyNeighbour({
    baseUrl: env.server!.baseUrl,
    adminToken: env.adminToken,
    samples: 480,
    paceMs: 100,
    floodConcurrency: 16,
    rounds: 8,
  });
  console.log(
    `rate limit (10/s per key), ${env.databaseLabel}: B alone p50 ${r.alone_p50_ms.toFixed(2)} ms, p99 ${r.alone_p99_ms.toFixed(2)} ms; ` +
      `B while A is throttled p50 ${r.flooded_p50_ms.toFixed(2)} ms, p99 ${r.flooded_p99_ms.toFixed(2)} ms; ratio ${r.p99_ratio.toFixed(2)} (target <= 2); ` +
      `A: ${r.flood_throttled} of ${r.flood_requests} answered 429`,
  );
  const cost = await measureSharedLimitCost({ databaseUrl: env.databaseUrl, adminToken: env.adminToken, seconds: 10, connections: 16 });
  const memory = cost[0];
  for (const c of cost) {
    console.log(
      `API key limit counted ${c.store}: ${c.per_second.toFixed(0)} req/s (${(c.per_second / memory.per_second).toFixed(2)}x memory), ` +
        `p50 ${c.p50_ms.toFixed(2)} ms, p99 ${c.p99_ms.toFixed(2)} ms, ${c.bucket_writes_per_1000.toFixed(1)} bucket statements per 1000 requests, ${c.non_2xx} non-2xx`,
    );
  }
  writeResult('rate-limit', {
    database: env.databaseLabel,
    limit_per_second: 10,
    ...r,
    shared_limit_cost: cost,
    pass: r.p99_ratio <= 2 && r.b_errors === 0 && cost.every((c) => c.non_2xx === 0),
  });
} finally {
  await env.close();
}
