import { openBenchEnv, writeResult } from '../bench-env';
import { measureNoisyNeighbour } from './noisy-neighbour';

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
  writeResult('rate-limit', { database: env.databaseLabel, limit_per_second: 10, ...r, pass: r.p99_ratio <= 2 && r.b_errors === 0 });
} finally {
  await env.close();
}
