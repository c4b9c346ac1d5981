import { writeResult } from '../bench-env';
import { runCrashTest } from './crash-test';

/** The crash test as a bench: 16 clients, 10 SIGKILLs, one immediate PostgreSQL shutdown; figures to bench/out/crash.json. */
const result = await runCrashTest();
console.log(
  `crash: ${result.server_kills} SIGKILLs and ${result.postgres_immediate_shutdowns} PostgreSQL immediate shutdown survived in ${result.seconds.toFixed(0)} s; ` +
    `${result.requests} requests (${result.succeeded} succeeded, ${result.refused} refused, ${result.undecided} undecided of which ${result.undecided_that_committed} committed); ` +
    `duplicates ${result.duplicates.length}, orphans ${result.orphans.length}, missing ${result.missing.length}, refused with an entry ${result.refused_with_entry.length}, ` +
    `missing events ${result.missing_events.length}, ledger problems ${result.ledger_problems.length}`,
);
writeResult('crash', result);
if (!result.ok) {
  console.error(JSON.stringify(result, null, 2));
  process.exit(1);
}
