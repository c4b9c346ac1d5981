-- A key's run is taken for dead a minute after its last commit, not a minute after it started: a payout batch commits
-- many times and may run longer than a minute, and a retry must not take over a run that is still committing.
ALTER TABLE "idempotency_keys" ADD COLUMN "last_committed_at" timestamp (3) with time zone;
